#pragma once
// UTF-8 <-> UTF-16 for the wide Win32 API (Windows builds only). Invalid
// input is refused, not replaced: a path or an HNS name silently altered
// would name something else.

#include <stdexcept>
#include <string>
#include <string_view>

namespace wincni::os {

struct Utf16Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::wstring widen(std::string_view utf8);
std::string narrow(std::wstring_view utf16);
std::string narrow(const wchar_t* utf16);  // null gives ""

}  // namespace wincni::os
