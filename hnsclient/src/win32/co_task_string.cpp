#include "wincni/hns/win32/co_task_string.hpp"

#include <windows.h>
#include <objbase.h>

#include <cstring>
#include <new>

#include "utf16.hpp"

namespace wincni::hns::win32 {

CoTaskString::~CoTaskString() { CoTaskMemFree(text_); }

wchar_t** CoTaskString::out() {
  CoTaskMemFree(text_);
  text_ = nullptr;
  return &text_;
}

std::string CoTaskString::utf8() const { return narrow(text_); }

wchar_t* co_task_copy(std::string_view utf8) {
  std::wstring wide = widen(utf8);
  const size_t bytes = (wide.size() + 1) * sizeof(wchar_t);
  auto* copy = static_cast<wchar_t*>(CoTaskMemAlloc(bytes));
  if (!copy) throw std::bad_alloc();
  std::memcpy(copy, wide.c_str(), bytes);
  return copy;
}

}  // namespace wincni::hns::win32
