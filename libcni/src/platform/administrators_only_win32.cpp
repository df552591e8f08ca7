// Whether someone other than the node's administrators could replace a
// folder a plugin keeps its state in, read from the folders' owners and
// DACLs (docs/reference/windows-acls.md has the rights and their sources).
//
// The folder itself must let nobody else add, delete or rename anything in
// it (a planted link, a swapped file). Every folder above it must let nobody
// else delete or rename it or a child (FILE_DELETE_CHILD), or change its ACL
// or owner: whoever can rename `C:\var` can put a `C:\var\lib\cni` of their
// own in its place. Adding a new child above is harmless (the names on our
// path exist), which is what the default ACL of a drive root allows every
// authenticated user.

#include <windows.h>
#include <aclapi.h>
#include <sddl.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "wincni/cni/error.hpp"
#include "wincni/cni/private_files.hpp"
#include "wincni/cni/utf16.hpp"
#include "wincni/cni/win32_error_text.hpp"
#include "wincni/cni/win32_handle.hpp"

namespace wincni::cni::private_files {

namespace {

struct SecurityMemoryFree {
  void operator()(void* p) const { LocalFree(p); }
};

// Rights that replace the folder or what it holds.
constexpr ACCESS_MASK kReplaces = DELETE | WRITE_DAC | WRITE_OWNER | FILE_DELETE_CHILD | GENERIC_ALL;
// Rights that put something new into the folder itself.
constexpr ACCESS_MASK kAdds = FILE_ADD_FILE | FILE_ADD_SUBDIRECTORY | GENERIC_WRITE;

std::string sid_text(PSID sid) {
  LPWSTR text = nullptr;
  if (!ConvertSidToStringSidW(sid, &text)) return "an unreadable SID";
  std::unique_ptr<void, SecurityMemoryFree> owned(text);
  std::string out = narrow(text);
  wchar_t name[256], domain[256];
  DWORD name_size = 256, domain_size = 256;
  SID_NAME_USE use;
  if (LookupAccountSidW(nullptr, sid, name, &name_size, domain, &domain_size, &use)) {
    out = domain_size == 0 ? fmt::format("{} ({})", narrow(name), out)
                           : fmt::format("{}\\{} ({})", narrow(domain), narrow(name), out);
  }
  return out;
}

// SYSTEM, the Administrators, TrustedInstaller (the owner of a drive root on
// recent Windows), OWNER RIGHTS (the owner, checked on its own) and this
// process's user (SYSTEM for a node's runtime; on POSIX the same rule admits
// the process's own uid).
class TrustedAccounts {
 public:
  TrustedAccounts() {
    add(L"S-1-5-18");
    add(L"S-1-5-32-544");
    add(L"S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464");
    add(L"S-1-3-4");
    HANDLE token = nullptr;
    if (OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token)) {
      Win32Handle owned(token);
      DWORD size = 0;
      GetTokenInformation(token, TokenUser, nullptr, 0, &size);
      user_.resize(size);
      if (size > 0 && GetTokenInformation(token, TokenUser, user_.data(), size, &size)) {
        self_ = reinterpret_cast<TOKEN_USER*>(user_.data())->User.Sid;
      }
    }
  }
  bool contains(PSID sid) const {
    if (self_ != nullptr && EqualSid(sid, self_)) return true;
    for (const auto& known : known_) {
      if (EqualSid(sid, known.get())) return true;
    }
    return false;
  }

 private:
  void add(const wchar_t* text) {
    PSID sid = nullptr;
    if (ConvertStringSidToSidW(text, &sid)) known_.emplace_back(sid);
  }
  std::vector<std::unique_ptr<void, SecurityMemoryFree>> known_;
  std::vector<BYTE> user_;
  PSID self_ = nullptr;
};

[[noreturn]] void refuse(const std::string& folder, const std::string& path, const std::string& why) {
  throw Error(kIoFailure,
              fmt::format("{} (above or at {}): {}; someone other than the administrators could replace what a "
                          "plugin keeps there. Give it to SYSTEM and the Administrators alone, e.g. icacls \"{}\" "
                          "/setowner Administrators and icacls \"{}\" /inheritance:r /grant:r SYSTEM:(OI)(CI)F "
                          "Administrators:(OI)(CI)F",
                          folder, path, why, folder, folder));
}

void check_folder(const std::string& folder, const std::string& path, bool is_leaf, const TrustedAccounts& trusted) {
  PSID owner = nullptr;
  PACL dacl = nullptr;
  PSECURITY_DESCRIPTOR descriptor = nullptr;
  const DWORD err = GetNamedSecurityInfoW(widen(folder).c_str(), SE_FILE_OBJECT,
                                          OWNER_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION, &owner, nullptr,
                                          &dacl, nullptr, &descriptor);
  if (err != ERROR_SUCCESS) {
    throw Error(kIoFailure, fmt::format("read the ACL of {}: {}", folder, win32_error_text(err)));
  }
  std::unique_ptr<void, SecurityMemoryFree> owned(descriptor);
  if (owner == nullptr || !trusted.contains(owner)) {
    refuse(folder, path, fmt::format("owned by {}", owner ? sid_text(owner) : "nobody"));
  }
  if (dacl == nullptr) refuse(folder, path, "no DACL, so everyone has full control");
  const ACCESS_MASK dangerous = is_leaf ? kReplaces | kAdds : kReplaces;
  for (DWORD i = 0; i < dacl->AceCount; ++i) {
    void* ace = nullptr;
    if (!GetAce(dacl, i, &ace)) continue;
    const auto* header = static_cast<ACE_HEADER*>(ace);
    // An inherit-only entry is for what is created inside, not this folder;
    // a deny entry only takes rights away.
    if ((header->AceFlags & INHERIT_ONLY_ACE) != 0) continue;
    if (header->AceType != ACCESS_ALLOWED_ACE_TYPE && header->AceType != ACCESS_ALLOWED_CALLBACK_ACE_TYPE) continue;
    const auto* allowed = static_cast<ACCESS_ALLOWED_ACE*>(ace);
    const PSID sid = const_cast<DWORD*>(&allowed->SidStart);
    const ACCESS_MASK granted = allowed->Mask & dangerous;
    if (granted != 0 && !trusted.contains(sid)) {
      refuse(
          folder, path,
          fmt::format("{} may {} (rights 0x{:x})", sid_text(sid),
                      (granted & kReplaces) != 0 ? "delete, rename or re-own it or what it holds" : "add files to it",
                      static_cast<unsigned long>(allowed->Mask)));
    }
  }
}

bool is_path_separator(wchar_t c) { return c == L'\\' || c == L'/'; }

// The folder's final path (links and junctions resolved), without the
// "\\?\" GetFinalPathNameByHandleW puts before it.
std::wstring final_path(const std::string& folder) {
  Win32Handle handle(CreateFileW(widen(folder).c_str(), FILE_READ_ATTRIBUTES,
                                 FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_EXISTING,
                                 FILE_FLAG_BACKUP_SEMANTICS, nullptr));
  if (!handle.valid()) throw Error(kIoFailure, fmt::format("open {}: {}", folder, win32_error_text(GetLastError())));
  std::wstring buffer(MAX_PATH, L'\0');
  for (;;) {
    const DWORD size = GetFinalPathNameByHandleW(handle.get(), buffer.data(), static_cast<DWORD>(buffer.size()),
                                                 FILE_NAME_NORMALIZED | VOLUME_NAME_DOS);
    if (size == 0) throw Error(kIoFailure, fmt::format("resolve {}: {}", folder, win32_error_text(GetLastError())));
    if (size < buffer.size()) {
      buffer.resize(size);
      break;
    }
    buffer.resize(size);
  }
  if (buffer.rfind(L"\\\\?\\UNC\\", 0) == 0) return L"\\\\" + buffer.substr(8);
  if (buffer.rfind(L"\\\\?\\", 0) == 0) return buffer.substr(4);
  return buffer;
}

// Where the folders above `path` end: after "C:\" or "\\server\share\".
std::size_t root_length(const std::wstring& path) {
  if (path.size() >= 3 && path[1] == L':' && is_path_separator(path[2])) return 3;
  if (path.size() >= 2 && is_path_separator(path[0]) && is_path_separator(path[1])) {
    std::size_t separators = 0;
    for (std::size_t i = 2; i < path.size(); ++i) {
      if (is_path_separator(path[i]) && ++separators == 2) return i + 1;
    }
  }
  return path.size();
}

}  // namespace

void require_administrators_only(const std::string& path) {
  // The part that exists: what does not is created private.
  std::string existing = path;
  while (!existing.empty() && !is_directory(existing)) {
    const auto cut = existing.find_last_of("\\/");
    if (cut == std::string::npos) return;
    // "C:\x" goes to "C:\", never to "C:" (the current folder on drive C).
    existing.resize(cut == 2 && existing[1] == ':' ? cut + 1 : cut);
    if (existing.size() == 3 && existing[1] == ':' && !is_directory(existing)) return;
  }
  if (existing.empty()) return;
  const TrustedAccounts trusted;
  std::wstring folder = final_path(existing);
  const std::size_t root = root_length(folder);
  while (folder.size() > root && is_path_separator(folder.back())) folder.pop_back();
  bool leaf = existing == path;
  for (;;) {
    check_folder(narrow(folder), path, leaf, trusted);
    leaf = false;
    if (folder.size() <= root) return;
    const auto cut = folder.find_last_of(L"\\/");
    folder.resize(cut == std::wstring::npos || cut + 1 <= root ? root : cut);
  }
}

}  // namespace wincni::cni::private_files
