#pragma once
// One hex digit's value, or -1; shared by the GUID and MAC parsers.

namespace wincni::hns {

constexpr int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace wincni::hns
