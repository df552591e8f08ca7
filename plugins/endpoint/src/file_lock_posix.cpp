#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "wincni/cni/error.hpp"
#include "wincni/endpoint/file_lock.hpp"

namespace wincni::endpoint {

namespace {
[[noreturn]] void fail(const std::string& what, const std::string& path, int error) {
  throw cni::Error(cni::kIoFailure, fmt::format("cannot {} {}: {}", what, path, std::strerror(error)));
}
}  // namespace

FileLock::FileLock(const std::string& path) {
  std::error_code ignored;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ignored);
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) fail("open the lock file", path, errno);
  while (::flock(fd, LOCK_EX) != 0) {
    if (errno == EINTR) continue;
    const int error = errno;
    ::close(fd);
    fail("lock", path, error);
  }
  handle_ = fd;
}

FileLock::~FileLock() { ::close(static_cast<int>(handle_)); }  // closing releases the lock

}  // namespace wincni::endpoint
