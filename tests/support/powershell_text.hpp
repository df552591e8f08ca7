#pragma once
// Text as Windows PowerShell writes it, for the tests of what the binaries
// take from the nodes' scripts: UTF-8 with a byte-order mark
// (`-Encoding UTF8`), or UTF-16LE with one (`>` and `Out-File`).

#include <string>

namespace wincni::test {

inline std::string utf8_with_bom(const std::string& text) { return "\xEF\xBB\xBF" + text; }

// For ASCII text, whose every byte is one UTF-16 unit: the tests' configs.
inline std::string utf16le_with_bom(const std::string& ascii) {
  std::string out = "\xFF\xFE";
  for (const char c : ascii) out += std::string{c, '\0'};
  return out;
}

}  // namespace wincni::test
