#pragma once
// vmcompute.dll's HNSCall (HNS "API v1"). Windows ships neither a header nor
// an import library for it; this prototype is the one hcsshim calls
// (docs/reference/hns-api.md §1). Both the win32 layer (which resolves it with
// GetProcAddress) and the emulator's vmcompute.dll (which exports it) use it.

#include <windows.h>

extern "C" HRESULT WINAPI HNSCall(PCWSTR Method, PCWSTR Path, PCWSTR Request, PWSTR* Response);
