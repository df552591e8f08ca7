#pragma once
// A POSIX file descriptor owned by one object: closed when the object goes,
// unless closed before — close() then reports the write-back error a
// destructor would have to swallow.

#include <unistd.h>

#include <utility>

namespace wincni::os::platform {

class Descriptor {
 public:
  Descriptor() = default;
  explicit Descriptor(int fd) : fd_(fd) {}
  Descriptor(Descriptor&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Descriptor& operator=(Descriptor&& other) noexcept {
    if (this != &other) {
      close();
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() { close(); }

  int get() const { return fd_; }
  bool open() const { return fd_ >= 0; }
  // close(2)'s result (-1 with errno set on failure); 0 when none was open.
  int close() {
    if (fd_ < 0) return 0;
    const int rc = ::close(fd_);
    fd_ = -1;
    return rc;
  }

 private:
  int fd_ = -1;
};

}  // namespace wincni::os::platform
