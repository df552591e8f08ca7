#pragma once
// Who may write a folder, set the way the OS says it: POSIX modes, Windows
// DACLs (SetNamedSecurityInfoW; Wine keeps them as the folder's mode bits).
// For the tests of the plugins' refusal of a folder others could replace
// (wincni::cni::private_files::require_administrators_only).

#include <filesystem>

#ifdef _WIN32
#include <windows.h>
#include <aclapi.h>
#include <sddl.h>

#include <stdexcept>
#include <string>
#endif

namespace wincni::test {

#ifdef _WIN32
namespace detail {
inline void set_dacl(const std::filesystem::path& folder, const wchar_t* sddl) {
  PSECURITY_DESCRIPTOR descriptor = nullptr;
  if (!ConvertStringSecurityDescriptorToSecurityDescriptorW(sddl, SDDL_REVISION_1, &descriptor, nullptr)) {
    throw std::runtime_error("SDDL");
  }
  BOOL present = FALSE, defaulted = FALSE;
  PACL dacl = nullptr;
  GetSecurityDescriptorDacl(descriptor, &present, &dacl, &defaulted);
  const DWORD err = SetNamedSecurityInfoW(const_cast<wchar_t*>(folder.wstring().c_str()), SE_FILE_OBJECT,
                                          DACL_SECURITY_INFORMATION | PROTECTED_DACL_SECURITY_INFORMATION, nullptr,
                                          nullptr, dacl, nullptr);
  LocalFree(descriptor);
  if (err != ERROR_SUCCESS) throw std::runtime_error("SetNamedSecurityInfoW: " + std::to_string(err));
}
}  // namespace detail
#endif

// Everyone may add, remove and rename what the folder holds (POSIX 0777
// without the sticky bit).
inline void let_everyone_write(const std::filesystem::path& folder) {
#ifdef _WIN32
  detail::set_dacl(folder, L"D:P(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;OICI;FA;;;OW)(A;OICI;FA;;;WD)");
#else
  std::filesystem::permissions(folder, std::filesystem::perms::all);
#endif
}

// Only its owner and the administrators may write it; everyone may read
// (POSIX 0755).
inline void let_only_administrators_write(const std::filesystem::path& folder) {
#ifdef _WIN32
  detail::set_dacl(folder, L"D:P(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;OICI;FA;;;OW)(A;OICI;0x1200a9;;;WD)");
#else
  namespace fs = std::filesystem;
  fs::permissions(folder, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                              fs::perms::others_read | fs::perms::others_exec);
#endif
}

}  // namespace wincni::test
