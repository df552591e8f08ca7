#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "wincni/os/append_file.hpp"

namespace wincni::os {

AppendFile::AppendFile(const std::string& path) {
  // O_NONBLOCK for the open only: a FIFO without a reader would block it for
  // ever (and fails with ENXIO instead). Private, as the plugins' other
  // files (a log names pods, addresses and configs), and never through a
  // link: root would append wherever it leads.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW, 0600);
  if (fd < 0) {
    error_ = errno == ELOOP ? "a symbolic link, refused" : std::strerror(errno);
    return;
  }
  // A FIFO or socket with a reader that stops reading would block a write
  // for ever: only files and devices are logged to.
  struct stat st {};
  if (::fstat(fd, &st) != 0 || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) {
    error_ = "not a regular file or device";
    ::close(fd);
    return;
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  handle_ = fd;
  size_ = S_ISREG(st.st_mode) ? static_cast<std::uint64_t>(st.st_size) : 0;
}

AppendFile::~AppendFile() {
  if (is_open()) ::close(static_cast<int>(handle_));
}

void AppendFile::append(std::string_view text) {
  if (!is_open()) return;
  // One write() per line: with O_APPEND the kernel places it whole at the end.
  while (!text.empty()) {
    const ssize_t written = ::write(static_cast<int>(handle_), text.data(), text.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return;
    text.remove_prefix(static_cast<size_t>(written));
  }
}

}  // namespace wincni::os
