#pragma once
// Strings that cross the HCN / HNSCall boundary are allocated with
// CoTaskMemAlloc by the callee and freed with CoTaskMemFree by the caller
// (Result, Properties, ErrorRecord, the HNSCall response).

#include <string>
#include <string_view>

namespace wincni::hns::win32 {

// Owns one callee-allocated string; frees it on destruction.
class CoTaskString {
 public:
  CoTaskString() = default;
  ~CoTaskString();
  CoTaskString(const CoTaskString&) = delete;
  CoTaskString& operator=(const CoTaskString&) = delete;

  // Where the callee writes the pointer (a PWSTR*). Frees what is held first.
  wchar_t** out();

  bool null() const { return text_ == nullptr; }
  // Utf16Error when the callee returned malformed UTF-16.
  std::string utf8() const;

 private:
  wchar_t* text_ = nullptr;
};

// The callee's side: a CoTaskMemAlloc'd UTF-16 copy of `utf8`, for the caller
// to free. std::bad_alloc when the allocation fails; Utf16Error on bad UTF-8.
wchar_t* co_task_copy(std::string_view utf8);

}  // namespace wincni::hns::win32
