#include "wincni/os/process_environment.hpp"

#ifdef _WIN32
#include <windows.h>

#include <cwchar>
#else
extern "C" char** environ;
#endif

namespace wincni::os {

#ifdef _WIN32

namespace {

std::string utf16_to_utf8(const wchar_t* text, int length) {
  const int size = WideCharToMultiByte(CP_UTF8, 0, text, length, nullptr, 0, nullptr, nullptr);
  std::string out(size > 0 ? static_cast<size_t>(size) : 0, '\0');
  if (size > 0) WideCharToMultiByte(CP_UTF8, 0, text, length, out.data(), size, nullptr, nullptr);
  return out;
}

}  // namespace

std::vector<std::string> current_process_environment() {
  std::vector<std::string> entries;
  wchar_t* block = GetEnvironmentStringsW();
  if (block == nullptr) return entries;
  // A block of NUL-terminated strings ended by an empty one. Entries that
  // start with '=' are cmd.exe's per-drive directories, not variables.
  for (const wchar_t* entry = block; *entry != L'\0'; entry += wcslen(entry) + 1) {
    if (entry[0] == L'=') continue;
    entries.push_back(utf16_to_utf8(entry, static_cast<int>(wcslen(entry))));
  }
  FreeEnvironmentStringsW(block);
  return entries;
}

#else

std::vector<std::string> current_process_environment() {
  std::vector<std::string> entries;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) entries.emplace_back(*entry);
  return entries;
}

#endif

}  // namespace wincni::os
