// vmcompute.dll for tests: HNSCall (HNS "API v1") and the HCS
// compute-system calls, answered by the HNS emulator. HNSCall: on success
// *Response is the envelope {"Success":..,"Error":..,"Output":..}, allocated
// with CoTaskMemAlloc; on a failed HRESULT it is NULL (hcsshim never reads
// it then). Hcs*: *Result is HCS's error document on failure, NULL on
// success; creating and terminating finish before the call returns, so no
// callback ever fires (callbacks can still be registered, as hcsshim does
// on every open).

#include <windows.h>

#include <exception>
#include <mutex>
#include <new>
#include <set>

#include "c_boundary.hpp"
#include "emulator_instance.hpp"
#include "handout_ledger.hpp"
#include "wincni/os/utf16.hpp"
#include "wincni/hns/win32/hcs_calls.hpp"
#include "wincni/hns/win32/hns_call.hpp"

namespace {

using wincni::hns::emulator_dll::deliver;
using wincni::hns::emulator_dll::emulator;
using wincni::hns::emulator_dll::utf8_argument;

// Registered callbacks: the handle is the address of one of these.
struct Registration {
  WincniHcsSystem system;
};
std::mutex registrations_mutex;
std::set<Registration*> registrations;

}  // namespace

extern "C" HRESULT WINAPI HNSCall(PCWSTR Method, PCWSTR Path, PCWSTR Request, PWSTR* Response) {
  using namespace wincni::hns;
  if (!Response) return E_POINTER;
  *Response = nullptr;
  try {
    HnsCallReply reply = emulator_dll::emulator().hns_call(wincni::os::narrow(Method), wincni::os::narrow(Path),
                                                           wincni::os::narrow(Request));
    if (failed(reply.hr)) return static_cast<HRESULT>(reply.hr);
    *Response = emulator_dll::hand_out(reply.response, "HNSCall");
    return static_cast<HRESULT>(reply.hr);
  } catch (const wincni::os::Utf16Error&) {
    return E_INVALIDARG;
  } catch (const std::bad_alloc&) {
    return E_OUTOFMEMORY;
  } catch (...) {
    return E_FAIL;
  }
}

extern "C" HRESULT WINAPI HcsCreateComputeSystem(PCWSTR Id, PCWSTR Configuration, HANDLE,
                                                 WincniHcsSystem* ComputeSystem, PWSTR* Result) {
  if (!ComputeSystem) return E_POINTER;
  *ComputeSystem = nullptr;
  return deliver("HcsCreateComputeSystem", nullptr, Result,
                 [&] { return emulator().hcs_create(utf8_argument(Id), utf8_argument(Configuration), ComputeSystem); });
}

extern "C" HRESULT WINAPI HcsOpenComputeSystem(PCWSTR Id, WincniHcsSystem* ComputeSystem, PWSTR* Result) {
  if (!ComputeSystem) return E_POINTER;
  *ComputeSystem = nullptr;
  return deliver("HcsOpenComputeSystem", nullptr, Result,
                 [&] { return emulator().hcs_open(utf8_argument(Id), ComputeSystem); });
}

extern "C" HRESULT WINAPI HcsGetComputeSystemProperties(WincniHcsSystem ComputeSystem, PCWSTR PropertyQuery,
                                                        PWSTR* Properties, PWSTR* Result) {
  if (!Properties) return E_POINTER;
  return deliver("HcsGetComputeSystemProperties", Properties, Result,
                 [&] { return emulator().hcs_properties(ComputeSystem, utf8_argument(PropertyQuery)); });
}

extern "C" HRESULT WINAPI HcsModifyComputeSystem(WincniHcsSystem ComputeSystem, PCWSTR Configuration, PWSTR* Result) {
  return deliver("HcsModifyComputeSystem", nullptr, Result,
                 [&] { return emulator().hcs_modify(ComputeSystem, utf8_argument(Configuration)); });
}

extern "C" HRESULT WINAPI HcsTerminateComputeSystem(WincniHcsSystem ComputeSystem, PCWSTR, PWSTR* Result) {
  return deliver("HcsTerminateComputeSystem", nullptr, Result, [&] { return emulator().hcs_terminate(ComputeSystem); });
}

extern "C" HRESULT WINAPI HcsCloseComputeSystem(WincniHcsSystem ComputeSystem) {
  if (!ComputeSystem) return E_HANDLE;
  try {
    emulator().hcs_close(ComputeSystem);
  } catch (...) {
    return E_FAIL;
  }
  return S_OK;
}

extern "C" HRESULT WINAPI HcsRegisterComputeSystemCallback(WincniHcsSystem ComputeSystem,
                                                           WincniHcsNotificationCallback Callback, void*,
                                                           WincniHcsCallback* CallbackHandle) {
  if (!CallbackHandle || !Callback) return E_POINTER;
  *CallbackHandle = nullptr;
  if (!ComputeSystem) return E_HANDLE;
  try {
    auto* registration = new Registration{ComputeSystem};
    std::lock_guard<std::mutex> guard(registrations_mutex);
    registrations.insert(registration);
    *CallbackHandle = registration;
  } catch (const std::bad_alloc&) {
    return E_OUTOFMEMORY;
  }
  return S_OK;
}

extern "C" HRESULT WINAPI HcsUnregisterComputeSystemCallback(WincniHcsCallback CallbackHandle) {
  std::lock_guard<std::mutex> guard(registrations_mutex);
  auto* registration = static_cast<Registration*>(CallbackHandle);
  if (!registrations.erase(registration)) return E_HANDLE;
  delete registration;
  return S_OK;
}

// The handouts never freed, reported as the process ends.
BOOL WINAPI DllMain(HINSTANCE, DWORD reason, LPVOID) {
  if (reason == DLL_PROCESS_DETACH) wincni::hns::emulator_dll::report_unfreed_handouts();
  return TRUE;
}
