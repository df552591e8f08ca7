#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <system_error>

#include "wincni/os/program_files.hpp"

namespace wincni::os::program_files {

namespace {

[[noreturn]] void fail(int err, std::string_view op, const std::string& path) {
  throw std::system_error(err, std::generic_category(), std::string(op) + " " + path);
}

}  // namespace

std::string own_directory() {
  char buffer[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", buffer, sizeof buffer);
  if (n <= 0 || static_cast<size_t>(n) >= sizeof buffer) fail(errno, "readlink", "/proc/self/exe");
  std::string path(buffer, static_cast<size_t>(n));
  return path.substr(0, path.find_last_of('/') == 0 ? 1 : path.find_last_of('/'));
}

void write_new_file(const std::string& path, std::string_view content) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
  if (fd < 0) fail(errno, "create", path);
  while (!content.empty()) {
    const ssize_t n = ::write(fd, content.data(), content.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : EIO;
      ::close(fd);
      ::unlink(path.c_str());
      fail(err, "write", path);
    }
    content.remove_prefix(static_cast<size_t>(n));
  }
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(path.c_str());
    fail(err, "close", path);
  }
}

// POSIX replaces a running program's name without touching the program.
Swap rename_over(const std::string& from, const std::string& to) {
  if (std::rename(from.c_str(), to.c_str()) != 0) fail(errno, "rename", to);
  return Swap::Done;
}

void rename_aside(const std::string& from, const std::string& to) {
  if (::link(from.c_str(), to.c_str()) != 0) fail(errno, "rename", from);
  if (::unlink(from.c_str()) != 0) fail(errno, "remove", from);
}

Removal remove_unless_busy(const std::string& path) {
  if (::unlink(path.c_str()) == 0) return Removal::Removed;
  if (errno == ENOENT) return Removal::Missing;
  fail(errno, "remove", path);
}

}  // namespace wincni::os::program_files
