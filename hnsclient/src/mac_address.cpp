#include "wincni/hns/mac_address.hpp"

#include <fmt/format.h>

#include "hex_digit.hpp"

namespace wincni::hns {
std::optional<MacAddress> MacAddress::parse(std::string_view text) {
  if (text.size() != 17) return std::nullopt;
  char separator = text[2];
  if (separator != '-' && separator != ':') return std::nullopt;
  MacAddress mac;
  for (size_t i = 0; i < 6; ++i) {
    size_t pos = i * 3;
    if (i > 0 && text[pos - 1] != separator) return std::nullopt;
    int high = hex_digit(text[pos]);
    int low = hex_digit(text[pos + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    mac.bytes_[i] = static_cast<std::uint8_t>(high * 16 + low);
  }
  return mac;
}

MacAddress MacAddress::from_value(std::uint64_t value) {
  MacAddress mac;
  for (size_t i = 0; i < 6; ++i) mac.bytes_[i] = static_cast<std::uint8_t>(value >> (40 - 8 * i));
  return mac;
}

std::uint64_t MacAddress::value() const {
  std::uint64_t value = 0;
  for (auto byte : bytes_) value = (value << 8) | byte;
  return value;
}

std::string MacAddress::str() const {
  return fmt::format("{:02X}-{:02X}-{:02X}-{:02X}-{:02X}-{:02X}", bytes_[0], bytes_[1], bytes_[2], bytes_[3], bytes_[4],
                     bytes_[5]);
}

}  // namespace wincni::hns
