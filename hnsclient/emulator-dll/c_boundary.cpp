#include "c_boundary.hpp"

#include <objbase.h>

#include <exception>
#include <new>

#include "co_task_string.hpp"
#include "utf16.hpp"

namespace wincni::hns::emulator_dll {
namespace {

using win32::co_task_copy;

// The error record when even the emulator's own reply cannot be delivered.
HRESULT fail_with(HResult code, std::string_view message, PWSTR* error_record) {
  std::string record = hns::error_record(code, std::string(message) + " ");
  try {
    *error_record = co_task_copy(record);
  } catch (const std::bad_alloc&) {
    *error_record = nullptr;  // nothing left to say it with
  }
  return static_cast<HRESULT>(code);
}

}  // namespace

std::string utf8_argument(PCWSTR text) { return win32::narrow(text); }

HRESULT deliver_reply(const HcnReply& reply, PWSTR* output, PWSTR* error_record) {
  if (reply.ok()) {
    if (output) *output = co_task_copy(reply.output);
    return static_cast<HRESULT>(reply.hr);
  }
  // A failure: an HRESULT that says so, even if the reply's did not.
  HResult code = failed(reply.hr) ? reply.hr : hr::kFail;
  *error_record = co_task_copy(reply.error_record.empty() ? hns::error_record(code) : reply.error_record);
  return static_cast<HRESULT>(code);
}

HRESULT deliver_exception(PWSTR* output, PWSTR* error_record) {
  if (output && *output) {
    CoTaskMemFree(*output);
    *output = nullptr;
  }
  try {
    throw;
  } catch (const win32::Utf16Error& error) {
    return fail_with(hr::kInvalidArg, error.what(), error_record);
  } catch (const std::bad_alloc&) {
    return fail_with(static_cast<HResult>(E_OUTOFMEMORY), "out of memory", error_record);
  } catch (const std::exception& error) {
    return fail_with(hr::kFail, std::string("emulator: ") + error.what(), error_record);
  } catch (...) {
    return fail_with(hr::kFail, "emulator: unknown failure", error_record);
  }
}

}  // namespace wincni::hns::emulator_dll
