#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>

#include "wincni/os/standard_descriptors.hpp"

namespace wincni::os {

void open_missing_standard_descriptors() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    // open() takes the lowest free number, which is `fd`: 0..fd-1 are open.
    const int opened = ::open("/dev/null", O_RDWR);
    if (opened >= 0 && opened != fd) {
      ::dup2(opened, fd);
      ::close(opened);
    }
  }
}

void survive_broken_pipes() {
  // Children do not inherit it: every signal's disposition is reset in a
  // delegate before its program starts (child_process_posix.cpp).
  ::signal(SIGPIPE, SIG_IGN);
}

void keep_children_exit_statuses() { ::signal(SIGCHLD, SIG_DFL); }

}  // namespace wincni::os
