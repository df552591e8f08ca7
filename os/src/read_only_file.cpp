#include "wincni/os/read_only_file.hpp"

namespace wincni::os {

std::string ReadOnlyFile::read_at(std::uint64_t offset, std::size_t length) const {
  if (offset >= size_) return {};
  if (length > size_ - offset) length = static_cast<std::size_t>(size_ - offset);
  std::string bytes(length, '\0');
  std::size_t got = 0;
  while (got < length) {
    const std::size_t n = read_some(offset + got, bytes.data() + got, length - got);
    if (n == 0) break;
    got += n;
  }
  bytes.resize(got);
  return bytes;
}

}  // namespace wincni::os
