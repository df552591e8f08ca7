#include <windows.h>

#include "wincni/os/windows_build.hpp"

namespace wincni::os {

namespace {

// RtlGetVersion tells the truth where GetVersionEx answers what the
// program's manifest asks for; it is looked up rather than imported, so
// that no binary imports ntdll.dll.
using RtlGetVersionFn = LONG(WINAPI*)(OSVERSIONINFOW*);

}  // namespace

std::optional<WindowsBuild> windows_build() {
  WindowsBuild found;
  OSVERSIONINFOW info{};
  info.dwOSVersionInfoSize = sizeof(info);
  const HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
  const auto rtl_get_version =
      ntdll != nullptr
          ? reinterpret_cast<RtlGetVersionFn>(reinterpret_cast<void*>(GetProcAddress(ntdll, "RtlGetVersion")))
          : nullptr;
  if (rtl_get_version == nullptr || rtl_get_version(&info) != 0) return std::nullopt;
  found.major = info.dwMajorVersion;
  found.minor = info.dwMinorVersion;
  found.build = info.dwBuildNumber;
  // The update revision is only in the registry ("UBR").
  DWORD revision = 0;
  DWORD size = sizeof(revision);
  if (RegGetValueW(HKEY_LOCAL_MACHINE, L"SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion", L"UBR", RRF_RT_REG_DWORD,
                   nullptr, &revision, &size) == ERROR_SUCCESS) {
    found.revision = revision;
  }
  return found;
}

}  // namespace wincni::os
