#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "wincni/os/error.hpp"
#include "wincni/os/file_lock.hpp"

namespace wincni::os {

namespace {

[[noreturn]] void fail(const char* what, const std::string& path, int error) {
  throw Error(kIoFailure, fmt::format("cannot {} {}: {}", what, path, std::strerror(error)));
}

bool is_conflict(int error) { return error == EWOULDBLOCK || error == EAGAIN || error == EACCES; }

}  // namespace

std::intptr_t FileLock::open_lock_file(const std::string& path, Family family) {
  // flock needs no write access, so a lock file we may not write still
  // works; a record lock needs the file open for reading (shared) and for
  // writing (exclusive). Never through a link: root would create the file
  // wherever it leads.
  const int access = family == Family::kFlock ? O_RDONLY : O_RDWR;
  const int fd = ::open(path.c_str(), access | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0 && errno == ELOOP) {
    throw Error(kIoFailure, fmt::format("cannot open the lock file {}: a symbolic link, refused", path));
  }
  if (fd < 0) fail("open the lock file", path, errno);
  return fd;
}

bool FileLock::try_lock(std::intptr_t handle, Sharing sharing, Family family, bool wait, const std::string& path) {
  const int fd = static_cast<int>(handle);
  for (;;) {
    int result;
    if (family == Family::kFlock) {
      result = ::flock(fd, (sharing == Sharing::kExclusive ? LOCK_EX : LOCK_SH) | (wait ? 0 : LOCK_NB));
    } else {
      // The whole file (l_start = l_len = 0), as Wine locks it for the
      // emulator (file_lock_win32.cpp). An open file description lock: it
      // conflicts with Wine's classic record locks, and unlike those it
      // belongs to this FileLock, not to the whole process.
      struct flock whole_file {};
      whole_file.l_type = sharing == Sharing::kExclusive ? F_WRLCK : F_RDLCK;
      whole_file.l_whence = SEEK_SET;
      result = ::fcntl(fd, wait ? F_OFD_SETLKW : F_OFD_SETLK, &whole_file);
    }
    if (result == 0) return true;
    const int error = errno;
    if (error == EINTR) continue;
    if (!wait && is_conflict(error)) return false;
    fail("lock", path, error);
  }
}

void FileLock::close_lock_file(std::intptr_t handle) { ::close(static_cast<int>(handle)); }

}  // namespace wincni::os
