#pragma once
// What the emulator DLLs hand their callers to free. Every string an export
// returns is CoTaskMemAlloc'd, and HCN's contract is that the caller frees it
// with CoTaskMemFree; real HNS cannot tell whether it does, the emulator can.
// An IMallocSpy sees every CoTaskMemFree of the process; a handout still held
// when the process ends (or the DLL is unloaded) is reported as one line in
// <state dir>/cotaskmem-leaks.log, which the e2e harness treats as a leak
// (tests/support/emulated_node.hpp, audit()).
//
// One spy per process is all COM allows, and the two DLLs (computenetwork.dll,
// vmcompute.dll) may both be loaded: the first to hand something out
// registers its spy, and the other records its handouts there through the
// WincniEmulatorRecordHandout export.

#include <windows.h>

#include <string_view>

namespace wincni::hns::emulator_dll {

// A CoTaskMemAlloc'd UTF-16 copy of `utf8` for the caller, recorded as
// handed out by the export `call`.
PWSTR hand_out(std::string_view utf8, const char* call);

// From DllMain on DLL_PROCESS_DETACH: appends the report line if this DLL's
// spy saw handouts that were never freed.
void report_unfreed_handouts();

// This DLL's ledger, when its spy is the process's; behind the export.
bool record_in_own_ledger(void* block, const char* call);

}  // namespace wincni::hns::emulator_dll
