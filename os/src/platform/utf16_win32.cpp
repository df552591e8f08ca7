#include <windows.h>

#include <climits>

#include "wincni/os/utf16.hpp"

namespace wincni::os {
namespace {

int checked_length(size_t size, const char* what) {
  if (size > static_cast<size_t>(INT_MAX)) throw Utf16Error(std::string(what) + " is too long to convert");
  return static_cast<int>(size);
}

}  // namespace

std::wstring widen(std::string_view utf8) {
  if (utf8.empty()) return {};
  const int length = checked_length(utf8.size(), "UTF-8 text");
  const int needed = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, utf8.data(), length, nullptr, 0);
  if (needed <= 0) throw Utf16Error("text is not valid UTF-8");
  std::wstring out(static_cast<size_t>(needed), L'\0');
  MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, utf8.data(), length, out.data(), needed);
  return out;
}

std::string narrow(std::wstring_view utf16) {
  if (utf16.empty()) return {};
  const int length = checked_length(utf16.size(), "UTF-16 text");
  const int needed =
      WideCharToMultiByte(CP_UTF8, WC_ERR_INVALID_CHARS, utf16.data(), length, nullptr, 0, nullptr, nullptr);
  if (needed <= 0) throw Utf16Error("text is not valid UTF-16");
  std::string out(static_cast<size_t>(needed), '\0');
  WideCharToMultiByte(CP_UTF8, WC_ERR_INVALID_CHARS, utf16.data(), length, out.data(), needed, nullptr, nullptr);
  return out;
}

std::string narrow(const wchar_t* text) { return text ? narrow(std::wstring_view(text)) : std::string(); }

}  // namespace wincni::os
