#pragma once
// The win32 layer: the seam (HcnApi) over the real computenetwork.dll (HCN)
// and vmcompute.dll (HNSCall), both loaded from System32 only, on first use,
// once per process. Every entry point is resolved with GetProcAddress, so a
// host without them gets a failed reply (ERROR_MOD_NOT_FOUND or
// ERROR_PROC_NOT_FOUND as an HRESULT, with an error record naming the DLL and
// the export), never a crash or a process that cannot start.
//
// Beyond the seam's contract:
// - a failed Hcn* call that came back without an error record gets the
//   standard one for its HRESULT, so callers always have a record to show;
// - a failed HNSCall that never reached the DLL carries, in `response`, an
//   envelope {"Success":false,"Error":"<why>"}.

#include <memory>
#include <string>

#include "wincni/hns/seam.hpp"

namespace wincni::hns::win32 {

// The real computenetwork.dll and vmcompute.dll, shared by every instance.
std::unique_ptr<HcnApi> make_win32_hcn_api();

// Which DLLs play the two parts (still loaded from System32 only): for tests
// that need a missing DLL or a DLL without the exports.
struct Win32Libraries {
  std::string hcn = "computenetwork.dll";
  std::string hns = "vmcompute.dll";
};
std::unique_ptr<HcnApi> make_win32_hcn_api(const Win32Libraries& libraries);

}  // namespace wincni::hns::win32
