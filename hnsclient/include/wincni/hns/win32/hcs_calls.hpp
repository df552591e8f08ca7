#pragma once
// vmcompute.dll's compute-system calls (HCS, the schema1 API the reference
// plugins reach through hcsshim). Windows ships no header for vmcompute.dll;
// these prototypes are the ones hcsshim's zsyscall bindings call
// (docs/reference/hns-api.md §4). The win32 layer resolves them with
// GetProcAddress; the emulator's vmcompute.dll exports them.

#include <windows.h>

using WincniHcsSystem = void*;
using WincniHcsCallback = void*;
// HCS calls it with a notification type, the context given at
// registration, a status and a JSON text.
using WincniHcsNotificationCallback = void(CALLBACK*)(DWORD type, void* context, HRESULT status, PCWSTR data);

extern "C" {
HRESULT WINAPI HcsCreateComputeSystem(PCWSTR Id, PCWSTR Configuration, HANDLE Identity, WincniHcsSystem* ComputeSystem,
                                      PWSTR* Result);
HRESULT WINAPI HcsOpenComputeSystem(PCWSTR Id, WincniHcsSystem* ComputeSystem, PWSTR* Result);
HRESULT WINAPI HcsGetComputeSystemProperties(WincniHcsSystem ComputeSystem, PCWSTR PropertyQuery, PWSTR* Properties,
                                             PWSTR* Result);
HRESULT WINAPI HcsModifyComputeSystem(WincniHcsSystem ComputeSystem, PCWSTR Configuration, PWSTR* Result);
HRESULT WINAPI HcsTerminateComputeSystem(WincniHcsSystem ComputeSystem, PCWSTR Options, PWSTR* Result);
HRESULT WINAPI HcsCloseComputeSystem(WincniHcsSystem ComputeSystem);
HRESULT WINAPI HcsRegisterComputeSystemCallback(WincniHcsSystem ComputeSystem, WincniHcsNotificationCallback Callback,
                                                void* Context, WincniHcsCallback* CallbackHandle);
HRESULT WINAPI HcsUnregisterComputeSystemCallback(WincniHcsCallback CallbackHandle);
}
