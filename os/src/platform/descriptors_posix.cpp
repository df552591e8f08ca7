// DescriptorSource and DescriptorSink on POSIX: read(2) and write(2),
// again when a signal interrupted them.

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <stdexcept>

#include <unistd.h>

#include "wincni/os/byte_streams.hpp"

namespace wincni::os {

namespace {

// What one call may ask for: read(2) and write(2) return an ssize_t.
std::size_t one_call_size(std::size_t size) { return std::min<std::size_t>(size, std::numeric_limits<ssize_t>::max()); }

}  // namespace

std::size_t DescriptorSource::read(char* buffer, std::size_t size) {
  for (;;) {
    const ssize_t n = ::read(fd_, buffer, one_call_size(size));
    if (n >= 0) return static_cast<std::size_t>(n);
    if (errno != EINTR) throw std::runtime_error(std::strerror(errno));
  }
}

bool DescriptorSink::write(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), one_call_size(bytes.size()));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

}  // namespace wincni::os
