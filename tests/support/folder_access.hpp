#pragma once
// Who may write a folder, set the way the OS says it: POSIX modes, Windows
// DACLs (SetNamedSecurityInfoW; Wine keeps them as the folder's mode bits).
// For the tests of the plugins' refusal of a folder others could replace
// (wincni::os::private_files::require_administrators_only).

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

#ifdef _WIN32
namespace detail {
// Wine 8's CreateSymbolicLinkW reports success and makes nothing; a Unix
// symbolic link, which Wine shows as a reparse point, stands in, made by
// running ln through Wine's Unix path mapping.
inline void make_unix_link(const std::filesystem::path& link, const std::filesystem::path& target) {
  using UnixName = char*(__cdecl*)(const wchar_t*);
  // Through void(*)(), the one cast GCC accepts between function types.
  const auto unix_name = reinterpret_cast<UnixName>(
      reinterpret_cast<void (*)()>(GetProcAddress(GetModuleHandleW(L"kernel32.dll"), "wine_get_unix_file_name")));
  if (unix_name == nullptr) throw std::runtime_error("wine_get_unix_file_name is missing");
  const auto unix_path = [&](const std::filesystem::path& p) {
    char* name = unix_name(p.wstring().c_str());
    if (name == nullptr) throw std::runtime_error("no Unix name for " + p.string());
    std::string text = name;
    HeapFree(GetProcessHeap(), 0, name);
    return text;
  };
  std::wstring command = L"Z:\\bin\\ln -s \"" + std::filesystem::path(unix_path(target)).wstring() + L"\" \"" +
                         std::filesystem::path(unix_path(link.parent_path())).wstring() + L"/" +
                         link.filename().wstring() + L"\"";
  STARTUPINFOW startup{};
  startup.cb = sizeof startup;
  PROCESS_INFORMATION process{};
  if (!CreateProcessW(L"Z:\\bin\\ln", command.data(), nullptr, nullptr, FALSE, 0, nullptr, nullptr, &startup,
                      &process)) {
    throw std::runtime_error("run ln: " + std::to_string(GetLastError()));
  }
  CloseHandle(process.hThread);
  CloseHandle(process.hProcess);
  // Wine signals a Unix program's process handle without waiting for the
  // program: the link is there when it is seen.
  for (int waited_ms = 0; waited_ms < 20'000; waited_ms += 10) {
    const DWORD attributes = GetFileAttributesW(link.wstring().c_str());
    if (attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_REPARSE_POINT) != 0) return;
    Sleep(10);
  }
}
}  // namespace detail
#endif

// Wine, whose links (Unix ones) give no reparse data.
inline bool running_under_wine() {
#ifdef _WIN32
  return GetProcAddress(GetModuleHandleW(L"ntdll.dll"), "wine_get_version") != nullptr;
#else
  return false;
#endif
}

// A symbolic link to a folder (on Windows a directory symlink, a reparse
// point), owned by whoever runs the test.
inline void make_folder_link(const std::filesystem::path& link, const std::filesystem::path& target) {
#ifdef _WIN32
  const bool made = CreateSymbolicLinkW(link.wstring().c_str(), target.wstring().c_str(),
                                        SYMBOLIC_LINK_FLAG_DIRECTORY | SYMBOLIC_LINK_FLAG_ALLOW_UNPRIVILEGED_CREATE);
  const DWORD error = made ? ERROR_SUCCESS : GetLastError();
  const auto is_link = [&] {
    const DWORD attributes = GetFileAttributesW(link.wstring().c_str());
    return attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_REPARSE_POINT) != 0;
  };
  // A relative target is the link's folder's business: on Wine made
  // absolute first, for the Unix path mapping.
  if (!is_link() && running_under_wine()) {
    detail::make_unix_link(link, target.is_absolute() ? target : link.parent_path() / target);
  }
  if (!is_link()) {
    throw std::runtime_error("could not make a link at " + link.string() + " (CreateSymbolicLinkW: Windows error " +
                             std::to_string(error) +
                             "; without Developer Mode it needs SeCreateSymbolicLinkPrivilege)");
  }
#else
  std::filesystem::create_directory_symlink(target, link);
#endif
}

}  // namespace wincni::test
