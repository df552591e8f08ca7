// Whether someone other than the node's administrators could replace a
// folder a plugin keeps its state in, read from owners and DACLs
// (docs/reference/windows-acls.md has the rights and their sources).
//
// The folder itself must let nobody else add, delete or rename anything in
// it (a planted link, a swapped file). Every folder above it must let nobody
// else delete or rename it or a child (FILE_DELETE_CHILD), or change its ACL
// or owner: whoever can rename `C:\var` can put a `C:\var\lib\cni` of their
// own in its place. Adding a new child above is harmless (the names on our
// path exist), which is what the default ACL of a drive root allows every
// authenticated user. A link or junction on the path is checked as itself
// (nobody else may rewrite it) and then the folders it leads to.

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

// How much of the check an entry on the path gets.
enum class Role {
  kAbove,  // a folder above: nobody else may delete, rename or re-own it or a child
  kLeaf,   // the folder itself: nor add anything to it
  kLink,   // a link or junction on the path: nor rewrite where it points
};

// Rights that replace the folder or what it holds.
constexpr ACCESS_MASK kReplaces = DELETE | WRITE_DAC | WRITE_OWNER | FILE_DELETE_CHILD | GENERIC_ALL;
// Rights that put something new into the folder itself.
constexpr ACCESS_MASK kAdds = FILE_ADD_FILE | FILE_ADD_SUBDIRECTORY | GENERIC_WRITE;
// Rights that rewrite a reparse point's target (FSCTL_SET_REPARSE_POINT asks
// for a handle with write access; either right is taken as enough).
constexpr ACCESS_MASK kRetargets = FILE_WRITE_DATA | FILE_WRITE_ATTRIBUTES | FILE_WRITE_EA | GENERIC_WRITE;

ACCESS_MASK dangerous_rights(Role role) {
  switch (role) {
    case Role::kAbove:
      return kReplaces;
    case Role::kLeaf:
      return kReplaces | kAdds;
    case Role::kLink:
      return kReplaces | kRetargets;
  }
  return kReplaces | kAdds | kRetargets;
}

bool only_takes_rights_away(BYTE ace_type) {
  return ace_type == ACCESS_DENIED_ACE_TYPE || ace_type == ACCESS_DENIED_OBJECT_ACE_TYPE ||
         ace_type == ACCESS_DENIED_CALLBACK_ACE_TYPE || ace_type == ACCESS_DENIED_CALLBACK_OBJECT_ACE_TYPE;
}

// The entry's own owner and DACL: a link is opened as itself, not followed.
void check_entry(const std::string& entry, const std::string& path, Role role, const TrustedAccounts& trusted) {
  Win32Handle handle(CreateFileW(widen(entry).c_str(), READ_CONTROL,
                                 FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_EXISTING,
                                 FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, nullptr));
  if (!handle.valid()) throw Error(kIoFailure, fmt::format("open {}: {}", entry, win32_error_text(GetLastError())));
  PSID owner = nullptr;
  PACL dacl = nullptr;
  PSECURITY_DESCRIPTOR descriptor = nullptr;
  const DWORD err =
      GetSecurityInfo(handle.get(), SE_FILE_OBJECT, OWNER_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION, &owner,
                      nullptr, &dacl, nullptr, &descriptor);
  if (err != ERROR_SUCCESS) {
    throw Error(kIoFailure, fmt::format("read the ACL of {}: {}", entry, win32_error_text(err)));
  }
  std::unique_ptr<void, SecurityMemoryFree> owned(descriptor);
  const std::string what = role == Role::kLink ? "a link on the path, " : "";
  if (owner == nullptr || !trusted.contains(owner)) {
    refuse(entry, path, fmt::format("{}owned by {}", what, owner ? sid_text(owner) : "nobody"));
  }
  if (dacl == nullptr) refuse(entry, path, what + "no DACL, so everyone has full control");
  const ACCESS_MASK dangerous = dangerous_rights(role);
  for (DWORD i = 0; i < dacl->AceCount; ++i) {
    void* ace = nullptr;
    if (!GetAce(dacl, i, &ace)) continue;
    const auto* header = static_cast<ACE_HEADER*>(ace);
    // An inherit-only entry is for what is created inside, not this entry.
    if ((header->AceFlags & INHERIT_ONLY_ACE) != 0) continue;
    if (only_takes_rights_away(header->AceType)) continue;
    // Object and compound entries have another layout; none belongs on a
    // file system object, so one is refused rather than guessed at.
    if (header->AceType != ACCESS_ALLOWED_ACE_TYPE && header->AceType != ACCESS_ALLOWED_CALLBACK_ACE_TYPE) {
      refuse(entry, path,
             fmt::format("{}an access entry of a type this check does not read ({})", what,
                         static_cast<unsigned>(header->AceType)));
    }
    const auto* allowed = static_cast<ACCESS_ALLOWED_ACE*>(ace);
    const PSID sid = const_cast<DWORD*>(&allowed->SidStart);
    const ACCESS_MASK granted = allowed->Mask & dangerous;
    if (granted != 0 && !trusted.contains(sid)) {
      const char* verb = (granted & kReplaces) != 0 ? "delete, rename or re-own it or what it holds"
                         : role == Role::kLink      ? "change where it points"
                                                    : "add files to it";
      refuse(entry, path,
             fmt::format("{}{} may {} (rights 0x{:x})", what, sid_text(sid), verb,
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

std::wstring full_path(const std::string& path) {
  const std::wstring given = widen(path);
  std::wstring buffer(MAX_PATH, L'\0');
  for (;;) {
    const DWORD size = GetFullPathNameW(given.c_str(), static_cast<DWORD>(buffer.size()), buffer.data(), nullptr);
    if (size == 0) throw Error(kIoFailure, fmt::format("resolve {}: {}", path, win32_error_text(GetLastError())));
    if (size < buffer.size()) {
      buffer.resize(size);
      return buffer;
    }
    buffer.resize(size);
  }
}

// The path's own entries from its root down, as far as they exist.
std::vector<std::wstring> existing_entries(const std::wstring& full) {
  std::vector<std::wstring> entries;
  const std::size_t root = root_length(full);
  std::wstring prefix = full.substr(0, root);
  if (GetFileAttributesW(prefix.c_str()) == INVALID_FILE_ATTRIBUTES) return entries;
  entries.push_back(prefix);
  std::size_t at = root;
  while (at < full.size()) {
    const std::size_t next = full.find_first_of(L"\\/", at);
    const std::size_t stop = next == std::wstring::npos ? full.size() : next;
    if (stop > at) {
      if (!is_path_separator(prefix.back())) prefix += L'\\';
      prefix += full.substr(at, stop - at);
      if (GetFileAttributesW(prefix.c_str()) == INVALID_FILE_ATTRIBUTES) break;
      entries.push_back(prefix);
    }
    at = stop + 1;
  }
  return entries;
}

bool is_link(const std::wstring& entry) {
  const DWORD attributes = GetFileAttributesW(entry.c_str());
  return attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_REPARSE_POINT) != 0;
}

}  // namespace

void require_administrators_only(const std::string& path) {
  const TrustedAccounts trusted;
  std::wstring full = full_path(path);
  while (full.size() > root_length(full) && is_path_separator(full.back())) full.pop_back();
  // First the path as given, each entry as itself: whoever may rewrite a
  // link or junction on it, or rename one away, chooses where it leads
  // whatever the target's ACL says.
  const std::vector<std::wstring> entries = existing_entries(full);
  if (entries.empty()) return;  // no such drive or share: nothing to replace
  bool through_link = false;
  for (const auto& entry : entries) {
    const bool link = is_link(entry);
    through_link = through_link || link;
    check_entry(narrow(entry), path, link ? Role::kLink : entry == full ? Role::kLeaf : Role::kAbove, trusted);
  }
  if (!through_link) return;
  // Then where the links lead, up to that drive's root.
  const bool deepest_is_path = entries.back() == full;
  std::wstring folder = final_path(narrow(entries.back()));
  const std::size_t root = root_length(folder);
  while (folder.size() > root && is_path_separator(folder.back())) folder.pop_back();
  bool leaf = deepest_is_path;
  for (;;) {
    check_entry(narrow(folder), path, leaf ? Role::kLeaf : Role::kAbove, trusted);
    leaf = false;
    if (folder.size() <= root) return;
    const auto cut = folder.find_last_of(L"\\/");
    folder.resize(cut == std::wstring::npos || cut + 1 <= root ? root : cut);
  }
}

}  // namespace wincni::cni::private_files
