#include "wincni/cni/stdin_text.hpp"

#include <cstdint>

#include <fmt/format.h>

#include "utf8_encoding.hpp"
#include "wincni/cni/error.hpp"

namespace wincni::cni {

namespace {

[[noreturn]] void undecodable(const std::string& why) {
  throw Error(kDecodingFailure, "the config starts with a UTF-16 byte-order mark but " + why);
}

std::string utf16_to_utf8(const std::string& bytes, bool little_endian) {
  if (bytes.size() % 2 != 0) undecodable("has an odd number of bytes");
  const auto unit_at = [&](size_t i) {
    const auto first = static_cast<unsigned char>(bytes[i]);
    const auto second = static_cast<unsigned char>(bytes[i + 1]);
    return static_cast<std::uint16_t>(little_endian ? (second << 8 | first) : (first << 8 | second));
  };
  std::string out;
  out.reserve(bytes.size() / 2);
  for (size_t i = 2; i < bytes.size(); i += 2) {  // past the byte-order mark
    const std::uint16_t unit = unit_at(i);
    if (unit >= 0xD800 && unit <= 0xDBFF) {
      if (i + 2 >= bytes.size()) undecodable("ends inside a surrogate pair");
      const std::uint16_t low = unit_at(i + 2);
      if (low < 0xDC00 || low > 0xDFFF) undecodable(fmt::format("has an unpaired surrogate at byte {}", i));
      append_utf8(out, 0x10000 + ((static_cast<std::uint32_t>(unit) - 0xD800) << 10) + (low - 0xDC00));
      i += 2;
    } else if (unit >= 0xDC00 && unit <= 0xDFFF) {
      undecodable(fmt::format("has an unpaired surrogate at byte {}", i));
    } else {
      append_utf8(out, unit);
    }
  }
  return out;
}

bool starts_with_bytes(const std::string& bytes, std::initializer_list<unsigned char> prefix) {
  if (bytes.size() < prefix.size()) return false;
  size_t i = 0;
  for (unsigned char byte : prefix) {
    if (static_cast<unsigned char>(bytes[i++]) != byte) return false;
  }
  return true;
}

}  // namespace

std::string stdin_as_utf8(std::string bytes) {
  if (starts_with_bytes(bytes, {0xEF, 0xBB, 0xBF})) return bytes.substr(3);
  if (starts_with_bytes(bytes, {0xFF, 0xFE})) return utf16_to_utf8(bytes, true);
  if (starts_with_bytes(bytes, {0xFE, 0xFF})) return utf16_to_utf8(bytes, false);
  return bytes;
}

}  // namespace wincni::cni
