#include "c_boundary.hpp"

#include <objbase.h>

#include <exception>
#include <new>

#include "handout_ledger.hpp"
#include "wincni/os/utf16.hpp"

namespace wincni::hns::emulator_dll {
namespace {

// The error record when even the emulator's own reply cannot be delivered.
HRESULT fail_with(const char* name, HResult code, std::string_view message, PWSTR* error_record) {
  std::string record = hns::error_record(code, std::string(message) + " ");
  try {
    *error_record = hand_out(record, name);
  } catch (const std::bad_alloc&) {
    *error_record = nullptr;  // nothing left to say it with
  }
  return static_cast<HRESULT>(code);
}

}  // namespace

std::string utf8_argument(PCWSTR text) { return os::narrow(text); }

HRESULT deliver_reply(const char* name, const HcnReply& reply, PWSTR* output, PWSTR* error_record) {
  if (reply.ok()) {
    if (output) *output = hand_out(reply.output, name);
    return static_cast<HRESULT>(reply.hr);
  }
  // A failure: an HRESULT that says so, even if the reply's did not.
  HResult code = failed(reply.hr) ? reply.hr : hr::kFail;
  *error_record = hand_out(reply.error_record.empty() ? hns::error_record(code) : reply.error_record, name);
  return static_cast<HRESULT>(code);
}

HRESULT deliver_exception(const char* name, PWSTR* output, PWSTR* error_record) {
  if (output && *output) {
    CoTaskMemFree(*output);
    *output = nullptr;
  }
  try {
    throw;
  } catch (const os::Utf16Error& error) {
    return fail_with(name, hr::kInvalidArg, error.what(), error_record);
  } catch (const std::bad_alloc&) {
    return fail_with(name, static_cast<HResult>(E_OUTOFMEMORY), "out of memory", error_record);
  } catch (const std::exception& error) {
    return fail_with(name, hr::kFail, std::string("emulator: ") + error.what(), error_record);
  } catch (...) {
    return fail_with(name, hr::kFail, "emulator: unknown failure", error_record);
  }
}

}  // namespace wincni::hns::emulator_dll
