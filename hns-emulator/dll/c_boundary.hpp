#pragma once
// The C side of the emulator DLLs' exports, as HCN's callers expect it
// (docs/reference/hns-api.md §2, §3): UTF-16 in; strings out allocated with
// CoTaskMemAlloc for the caller to free; on success *ErrorRecord = NULL and
// the output set (never NULL); on failure a negative HRESULT, the error
// record set and the output NULL. No C++ exception crosses an export.

#include <windows.h>

#include <string>

#include "wincni/hns/seam.hpp"

namespace wincni::hns::emulator_dll {

// UTF-8 copy of an input string; NULL reads as "". Utf16Error when malformed.
std::string utf8_argument(PCWSTR text);

// Runs `call` (which returns an HcnReply) and hands its outcome to the
// caller's pointers, recorded as handed out by the export `name`
// (handout_ledger.hpp). `output` is NULL for calls without one.
template <typename Call>
HRESULT deliver(const char* name, PWSTR* output, PWSTR* error_record, Call&& call);

// Implementation details of deliver().
HRESULT deliver_reply(const char* name, const HcnReply& reply, PWSTR* output, PWSTR* error_record);
HRESULT deliver_exception(const char* name, PWSTR* output, PWSTR* error_record);

template <typename Call>
HRESULT deliver(const char* name, PWSTR* output, PWSTR* error_record, Call&& call) {
  if (!error_record) return E_POINTER;
  *error_record = nullptr;
  if (output) *output = nullptr;
  try {
    return deliver_reply(name, call(), output, error_record);
  } catch (...) {
    return deliver_exception(name, output, error_record);
  }
}

}  // namespace wincni::hns::emulator_dll
