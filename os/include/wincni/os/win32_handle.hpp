#pragma once
// Windows only: a kernel handle that is closed when it goes out of scope.

#include <windows.h>

#include <utility>

namespace wincni::os {

class Win32Handle {
 public:
  explicit Win32Handle(HANDLE h) : h_(h) {}
  ~Win32Handle() {
    if (valid()) CloseHandle(h_);
  }
  Win32Handle(const Win32Handle&) = delete;
  Win32Handle& operator=(const Win32Handle&) = delete;
  Win32Handle(Win32Handle&& other) noexcept : h_(std::exchange(other.h_, INVALID_HANDLE_VALUE)) {}
  Win32Handle& operator=(Win32Handle&& other) noexcept {
    if (this != &other) {
      if (valid()) CloseHandle(h_);
      h_ = std::exchange(other.h_, INVALID_HANDLE_VALUE);
    }
    return *this;
  }
  bool valid() const { return h_ != INVALID_HANDLE_VALUE && h_ != nullptr; }
  HANDLE get() const { return h_; }
  // Closes now; false when CloseHandle reports a failure (a write-back error).
  bool close() {
    if (!valid()) return true;
    const BOOL ok = CloseHandle(h_);
    h_ = INVALID_HANDLE_VALUE;
    return ok != FALSE;
  }

 private:
  HANDLE h_;
};

}  // namespace wincni::os
