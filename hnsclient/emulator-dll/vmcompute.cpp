// vmcompute.dll for tests: HNSCall (HNS "API v1"), answered by the HNS
// emulator. On success *Response is the envelope
// {"Success":..,"Error":..,"Output":..}, allocated with CoTaskMemAlloc; on a
// failed HRESULT it is NULL (hcsshim never reads it then).

#include <windows.h>

#include <exception>
#include <new>

#include "emulator_instance.hpp"
#include "handout_ledger.hpp"
#include "hns_call.hpp"
#include "utf16.hpp"

extern "C" HRESULT WINAPI HNSCall(PCWSTR Method, PCWSTR Path, PCWSTR Request, PWSTR* Response) {
  using namespace wincni::hns;
  if (!Response) return E_POINTER;
  *Response = nullptr;
  try {
    HnsCallReply reply = emulator_dll::emulator().hns_call(win32::narrow(Method), win32::narrow(Path),
                                                           win32::narrow(Request));
    if (failed(reply.hr)) return static_cast<HRESULT>(reply.hr);
    *Response = emulator_dll::hand_out(reply.response, "HNSCall");
    return static_cast<HRESULT>(reply.hr);
  } catch (const win32::Utf16Error&) {
    return E_INVALIDARG;
  } catch (const std::bad_alloc&) {
    return E_OUTOFMEMORY;
  } catch (...) {
    return E_FAIL;
  }
}

// The handouts never freed, reported as the process ends.
BOOL WINAPI DllMain(HINSTANCE, DWORD reason, LPVOID) {
  if (reason == DLL_PROCESS_DETACH) wincni::hns::emulator_dll::report_unfreed_handouts();
  return TRUE;
}
