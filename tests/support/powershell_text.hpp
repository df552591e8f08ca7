#pragma once
// Text as Windows PowerShell writes it, for the tests of what the binaries
// take from the nodes' scripts: UTF-8 with a byte-order mark
// (`-Encoding UTF8`), or UTF-16LE with one (`>` and `Out-File`).

#include <cstddef>
#include <string>

namespace wincni::test {

inline std::string utf8_with_bom(const std::string& text) { return "\xEF\xBB\xBF" + text; }

// For UTF-8 text in the Basic Multilingual Plane (the tests' configs), each
// of whose characters is one UTF-16 unit.
inline std::string utf16le_with_bom(const std::string& utf8) {
  std::string out = "\xFF\xFE";
  for (size_t i = 0; i < utf8.size();) {
    const auto lead = static_cast<unsigned char>(utf8[i]);
    const size_t length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : 3;
    unsigned unit = length == 1 ? lead : lead & (length == 2 ? 0x1F : 0x0F);
    for (size_t k = 1; k < length; ++k) unit = unit << 6 | (static_cast<unsigned char>(utf8[i + k]) & 0x3F);
    out += static_cast<char>(unit & 0xFF);
    out += static_cast<char>(unit >> 8);
    i += length;
  }
  return out;
}

}  // namespace wincni::test
