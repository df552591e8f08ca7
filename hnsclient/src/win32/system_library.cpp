#include "system_library.hpp"

#include <system_error>

#include <fmt/format.h>

#include "utf16.hpp"

namespace wincni::hns::win32 {
namespace {

std::string system_message(DWORD code) { return std::system_category().message(static_cast<int>(code)); }

}  // namespace

SystemLibrary::SystemLibrary(std::string name) : name_(std::move(name)) {
  module_ = LoadLibraryExW(widen(name_).c_str(), nullptr, LOAD_LIBRARY_SEARCH_SYSTEM32);
  if (!module_) load_error_ = GetLastError();
}

SystemLibrary::~SystemLibrary() {
  if (module_) FreeLibrary(module_);
}

FARPROC SystemLibrary::address(const std::string& symbol) const {
  if (!module_) {
    throw EntryPointError(hresult_from_win32(load_error_),
                          fmt::format("{} could not be loaded from the system directory: {} (Win32 error {})", name_,
                                      system_message(load_error_), load_error_));
  }
  FARPROC found = GetProcAddress(module_, symbol.c_str());
  if (!found) {
    DWORD error = GetLastError();
    throw EntryPointError(hresult_from_win32(error == ERROR_SUCCESS ? ERROR_PROC_NOT_FOUND : error),
                          fmt::format("{} has no export {}: {}", name_, symbol, system_message(error)));
  }
  return found;
}

}  // namespace wincni::hns::win32
