#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <thread>
#include <cstring>

#include <fmt/format.h>

#include "wincni/cni/error.hpp"
#include "wincni/cni/file_lock.hpp"

namespace wincni::cni {

namespace {

// The longest pause between two tries of a bounded wait: every holder keeps
// a plugin's lock for milliseconds, and a waiter asleep after it is let go
// is latency every queued pod pays (host-local's lock, 50 pods at once).
constexpr std::chrono::milliseconds kLongestPause(5);
[[noreturn]] void fail(const char* what, const std::string& path, int error) {
  throw Error(kIoFailure, fmt::format("cannot {} {}: {}", what, path, std::strerror(error)));
}
}  // namespace

std::intptr_t FileLock::open_lock_file(const std::string& path) {
  // flock needs no write access, so a lock file we may not write still works.
  // Never through a link: root would create the file wherever it leads.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0 && errno == ELOOP) {
    throw Error(kIoFailure, fmt::format("cannot open the lock file {}: a symbolic link, refused", path));
  }
  if (fd < 0) fail("open the lock file", path, errno);
  return fd;
}

FileLock::FileLock(const std::string& path, std::chrono::milliseconds limit) {
  const int fd = static_cast<int>(open_lock_file(path));
  // A day at most: a limit from the environment near the clock's range
  // would overflow the deadline.
  limit = std::min<std::chrono::milliseconds>(limit, std::chrono::hours(24));
  const auto deadline = std::chrono::steady_clock::now() + limit;
  auto pause = std::chrono::milliseconds(1);
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    if (error == EINTR) continue;
    if (error != EWOULDBLOCK || std::chrono::steady_clock::now() >= deadline) {
      ::close(fd);
      if (error != EWOULDBLOCK) fail("lock", path, error);
      throw Error(kTryAgainLater,
                  fmt::format("waited {} ms for the lock {}: another process holds it", limit.count(), path));
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, kLongestPause);
  }
  handle_ = fd;
}

FileLock::FileLock(const std::string& path) {
  const int fd = static_cast<int>(open_lock_file(path));
  while (::flock(fd, LOCK_EX) != 0) {
    if (errno == EINTR) continue;
    const int error = errno;
    ::close(fd);
    fail("lock", path, error);
  }
  handle_ = fd;
}

FileLock::~FileLock() { ::close(static_cast<int>(handle_)); }  // closing releases the lock

}  // namespace wincni::cni
