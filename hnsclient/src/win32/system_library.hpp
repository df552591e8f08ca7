#pragma once
// A DLL loaded from System32 and from nowhere else: the plugins run as
// SYSTEM, so a computenetwork.dll planted in the current directory or on
// PATH must never be picked up. A missing DLL or export is reported, never
// fatal, so that a node without the Containers feature gets a clear error.

#include <windows.h>

#include <stdexcept>
#include <string>

#include "wincni/hns/hresult.hpp"

namespace wincni::hns::win32 {

// The DLL or the export is missing; `code()` is the HRESULT to report
// (ERROR_MOD_NOT_FOUND or ERROR_PROC_NOT_FOUND as HRESULTs).
class EntryPointError : public std::runtime_error {
 public:
  EntryPointError(HResult code, const std::string& message) : std::runtime_error(message), code_(code) {}
  HResult code() const { return code_; }

 private:
  HResult code_;
};

class SystemLibrary {
 public:
  // Loads `name` (e.g. "computenetwork.dll"); a failure is remembered and
  // reported by every later lookup.
  explicit SystemLibrary(std::string name);
  ~SystemLibrary();
  SystemLibrary(const SystemLibrary&) = delete;
  SystemLibrary& operator=(const SystemLibrary&) = delete;

  // The export `symbol` as a function of type Fn; EntryPointError when the
  // library did not load or has no such export.
  template <typename Fn>
  Fn function(const std::string& symbol) const {
    // Through void(*)(), the one function type GCC lets every other convert
    // to without -Wcast-function-type.
    return reinterpret_cast<Fn>(reinterpret_cast<void (*)()>(address(symbol)));
  }

 private:
  FARPROC address(const std::string& symbol) const;

  std::string name_;
  HMODULE module_ = nullptr;
  DWORD load_error_ = ERROR_SUCCESS;
};

}  // namespace wincni::hns::win32
