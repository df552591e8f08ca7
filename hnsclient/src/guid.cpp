#include "wincni/hns/guid.hpp"

#include <random>

#include "hex_digit.hpp"

namespace wincni::hns {
namespace {

// Reads `count` hex digits at `pos`; false on any non-hex character.
bool read_hex(std::string_view text, size_t pos, size_t count, std::uint64_t& out) {
  out = 0;
  for (size_t i = 0; i < count; ++i) {
    int digit = hex_digit(text[pos + i]);
    if (digit < 0) return false;
    out = (out << 4) | static_cast<std::uint64_t>(digit);
  }
  return true;
}

}  // namespace

std::optional<Guid> Guid::parse(std::string_view text) {
  if (text.size() == 38 && text.front() == '{' && text.back() == '}') text = text.substr(1, 36);
  if (text.size() != 36) return std::nullopt;
  if (text[8] != '-' || text[13] != '-' || text[18] != '-' || text[23] != '-') return std::nullopt;
  Guid guid;
  std::uint64_t value = 0;
  if (!read_hex(text, 0, 8, value)) return std::nullopt;
  guid.data1 = static_cast<std::uint32_t>(value);
  if (!read_hex(text, 9, 4, value)) return std::nullopt;
  guid.data2 = static_cast<std::uint16_t>(value);
  if (!read_hex(text, 14, 4, value)) return std::nullopt;
  guid.data3 = static_cast<std::uint16_t>(value);
  for (size_t i = 0; i < 8; ++i) {
    size_t pos = i < 2 ? 19 + 2 * i : 24 + 2 * (i - 2);
    if (!read_hex(text, pos, 2, value)) return std::nullopt;
    guid.data4[i] = static_cast<std::uint8_t>(value);
  }
  return guid;
}

Guid Guid::generate() {
  // Straight from the OS each time: a pseudo-random engine would be copied
  // into forked children and hand them all the same IDs.
  std::random_device device;
  auto word = [&device] { return (std::uint64_t{device()} << 32) | device(); };
  std::uint64_t high = word();
  std::uint64_t low = word();
  Guid guid;
  guid.data1 = static_cast<std::uint32_t>(high >> 32);
  guid.data2 = static_cast<std::uint16_t>(high >> 16);
  guid.data3 = static_cast<std::uint16_t>((high & 0x0FFF) | 0x4000);  // version 4
  for (size_t i = 0; i < 8; ++i) guid.data4[i] = static_cast<std::uint8_t>(low >> (56 - 8 * i));
  guid.data4[0] = static_cast<std::uint8_t>((guid.data4[0] & 0x3F) | 0x80);  // RFC 4122 variant
  return guid;
}

// By hand rather than through fmt: the emulator names every file and index
// entry by its GUID, and fmt's parsing of eleven fields was a tenth of the
// instructions of a win-bridge ADD on it (callgrind).
std::string Guid::str() const {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string text(36, '-');
  size_t pos = 0;
  auto put = [&](std::uint64_t value, int digits) {
    for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4) text[pos++] = kDigits[(value >> shift) & 0xF];
  };
  put(data1, 8);
  ++pos;
  put(data2, 4);
  ++pos;
  put(data3, 4);
  ++pos;
  put(data4[0], 2);
  put(data4[1], 2);
  ++pos;
  for (size_t i = 2; i < 8; ++i) put(data4[i], 2);
  return text;
}

bool same_guid(std::string_view a, std::string_view b) {
  auto left = Guid::parse(a);
  auto right = Guid::parse(b);
  return left && right && *left == *right;
}

}  // namespace wincni::hns
