#pragma once
// UTF-8 (everything above the seam) <-> UTF-16 (every W entry point of
// Windows). Strict both ways: a JSON document silently mangled in conversion
// would reach HNS as a different document, so invalid input is refused.

#include <stdexcept>
#include <string>
#include <string_view>

namespace wincni::hns::win32 {

class Utf16Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Utf16Error when `utf8` is not valid UTF-8.
std::wstring widen(std::string_view utf8);
// Utf16Error when `utf16` holds an unpaired surrogate.
std::string narrow(std::wstring_view utf16);
// `text` may be null (treated as empty).
std::string narrow(const wchar_t* text);

}  // namespace wincni::hns::win32
