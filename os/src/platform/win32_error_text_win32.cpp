#include <windows.h>

#include <fmt/format.h>

#include "wincni/os/utf16.hpp"
#include "wincni/os/win32_error_text.hpp"

namespace wincni::os {

std::string win32_error_text(unsigned long code) {
  wchar_t* buffer = nullptr;
  const DWORD n =
      FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
                     nullptr, code, 0, reinterpret_cast<wchar_t*>(&buffer), 0, nullptr);
  std::wstring text = n != 0 && buffer != nullptr ? std::wstring(buffer, n) : std::wstring();
  if (buffer != nullptr) LocalFree(buffer);
  while (!text.empty() && (text.back() == L'\n' || text.back() == L'\r' || text.back() == L' ')) text.pop_back();
  return text.empty() ? fmt::format("error {}", code) : fmt::format("{} (error {})", narrow(text), code);
}

}  // namespace wincni::os
