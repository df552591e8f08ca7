// read_all; the descriptor streams are platform code
// (platform/descriptors_posix.cpp, platform/descriptors_win32.cpp).

#include "wincni/os/byte_streams.hpp"

namespace wincni::os {

std::string read_all(ByteSource& source) {
  std::string data;
  char block[16 * 1024];
  while (const std::size_t n = source.read(block, sizeof block)) data.append(block, n);
  return data;
}

std::optional<std::string> read_at_most(ByteSource& source, std::size_t limit) {
  std::string data;
  char block[16 * 1024];
  while (const std::size_t n = source.read(block, sizeof block)) {
    if (n > limit - data.size()) return std::nullopt;
    data.append(block, n);
  }
  return data;
}

}  // namespace wincni::os
