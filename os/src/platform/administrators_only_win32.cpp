// Whether someone other than the node's administrators could replace a
// folder a plugin keeps its state in, read from owners and DACLs
// (docs/reference/windows-acls.md has the rights and their sources).
//
// The path is resolved as Windows resolves it, one entry at a time and one
// link or junction at a time, and every entry met is checked as itself
// (opened with FILE_FLAG_OPEN_REPARSE_POINT): the folder must let nobody
// else add, delete or rename anything in it, or turn it into a junction;
// every folder on the way must let nobody else delete or rename it or a
// child (FILE_DELETE_CHILD), or change its ACL or owner: whoever can rename
// `C:\var` can put a `C:\var\lib\cni` of their own in its place. Adding a
// new child on the way is harmless (the names on our path exist), which is
// what the default ACL of a drive root allows every authenticated user. A
// link must let nobody else rewrite where it points, and the folders it
// leads through are checked in turn.

#include <windows.h>
#include <winioctl.h>
#include <aclapi.h>
#include <sddl.h>

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "local_memory_win32.hpp"
#include "reparse_target.hpp"
#include "wincni/os/error.hpp"
#include "wincni/os/private_files.hpp"
#include "wincni/os/utf16.hpp"
#include "wincni/os/win32_error_text.hpp"
#include "wincni/os/win32_handle.hpp"

namespace wincni::os::private_files {

namespace {

std::string sid_text(PSID sid) {
  LPWSTR text = nullptr;
  if (!ConvertSidToStringSidW(sid, &text)) return "an unreadable SID";
  platform::LocalMemory owned(text);
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
  std::vector<platform::LocalMemory> known_;
  std::vector<BYTE> user_;
  PSID self_ = nullptr;
};

// How much of the check an entry on the path gets.
enum class Role {
  kAbove,  // a folder above: nobody else may delete, rename or re-own it or a child
  kLeaf,   // the folder itself: nor add anything to it
  kLink,   // a link or junction on the path: nor rewrite where it points
};

// Rights that replace the folder or what it holds.
constexpr ACCESS_MASK kReplaces = DELETE | WRITE_DAC | WRITE_OWNER | FILE_DELETE_CHILD | GENERIC_ALL;
// Rights that put something new into the folder itself, or make it a
// junction: FSCTL_SET_REPARSE_POINT takes a handle with FILE_WRITE_DATA or
// FILE_WRITE_ATTRIBUTES (MS-FSA 2.1.5.10.37), and works on an empty folder.
constexpr ACCESS_MASK kAdds =
    FILE_ADD_FILE | FILE_ADD_SUBDIRECTORY | FILE_WRITE_ATTRIBUTES | FILE_WRITE_EA | GENERIC_WRITE;
// Rights that rewrite a link's target (as above).
constexpr ACCESS_MASK kRetargets = FILE_WRITE_DATA | FILE_WRITE_ATTRIBUTES | FILE_WRITE_EA | GENERIC_WRITE;

[[noreturn]] void refuse(const std::string& entry, const std::string& path, Role role, const std::string& why) {
  const std::string fix =
      role == Role::kLink
          ? fmt::format(
                "Give the link itself to the Administrators (icacls \"{}\" /L /setowner Administrators, and "
                "/L /remove any other account), or make it again from an elevated shell",
                entry)
          : fmt::format(
                "Give it to SYSTEM and the Administrators alone, e.g. icacls \"{0}\" /setowner "
                "Administrators, icacls \"{0}\" /inheritance:r /grant:r SYSTEM:(OI)(CI)F "
                "Administrators:(OI)(CI)F, and icacls \"{0}\" /remove any other account it names",
                entry);
  throw Error(kIoFailure,
              fmt::format("{} (above or at {}): {}; someone other than the administrators could replace what a "
                          "plugin keeps there. {}",
                          entry, path, why, fix));
}

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
  platform::LocalMemory owned(descriptor);
  const std::string what = role == Role::kLink ? "a link on the path, " : "";
  if (owner == nullptr || !trusted.contains(owner)) {
    refuse(entry, path, role, fmt::format("{}owned by {}", what, owner ? sid_text(owner) : "nobody"));
  }
  if (dacl == nullptr) refuse(entry, path, role, what + "no DACL, so everyone has full control");
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
      refuse(entry, path, role,
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
      refuse(entry, path, role,
             fmt::format("{}{} may {} (rights 0x{:x})", what, sid_text(sid), verb,
                         static_cast<unsigned long>(allowed->Mask)));
    }
  }
}

bool is_path_separator(wchar_t c) { return c == L'\\' || c == L'/'; }

// As many links as one lookup may pass through (Windows stops at 63).
constexpr int kMostLinks = 63;

// The folder an entry is in, or where its final path is, and the names
// after it: "C:\", "\\server\share\", "\\?\Volume{...}\".
struct Rooted {
  std::wstring root;
  std::wstring rest;
};

Rooted split_root(std::wstring path, const std::string& given) {
  for (auto& c : path) {
    if (c == L'/') c = L'\\';
  }
  // The device forms: "\\?\C:\x", "\\?\UNC\server\share\x", "\\?\Volume{...}\x".
  if (path.rfind(L"\\\\?\\", 0) == 0 || path.rfind(L"\\\\.\\", 0) == 0) {
    const std::wstring after = path.substr(4);
    if (after.rfind(L"UNC\\", 0) == 0) {
      path = L"\\\\" + after.substr(4);
    } else if (after.size() >= 2 && after[1] == L':') {
      path = after;
    } else if (after.rfind(L"Volume{", 0) == 0) {
      const auto end = after.find(L'\\');
      if (end == std::wstring::npos) return {path + L"\\", L""};
      return {path.substr(0, 4 + end + 1), after.substr(end + 1)};
    }
  }
  if (path.size() >= 3 && path[1] == L':' && path[2] == L'\\') return {path.substr(0, 3), path.substr(3)};
  if (path.size() >= 2 && path[0] == L'\\' && path[1] == L'\\') {
    std::size_t separators = 0;
    for (std::size_t i = 2; i < path.size(); ++i) {
      if (path[i] == L'\\' && ++separators == 2) return {path.substr(0, i + 1), path.substr(i + 1)};
    }
    return {path + L"\\", L""};
  }
  throw Error(kIoFailure, fmt::format("{}: not a path whose folders this check can read", given));
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

// The entry's final path, links followed (Wine, which cannot read a link's
// reparse data, answers this for its Unix links).
std::wstring final_path(const std::wstring& entry) {
  Win32Handle handle(CreateFileW(entry.c_str(), FILE_READ_ATTRIBUTES,
                                 FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_EXISTING,
                                 FILE_FLAG_BACKUP_SEMANTICS, nullptr));
  if (!handle.valid()) {
    throw Error(kIoFailure, fmt::format("{} is a link whose target cannot be opened: {}", narrow(entry),
                                        win32_error_text(GetLastError())));
  }
  std::wstring buffer(MAX_PATH, L'\0');
  for (;;) {
    const DWORD size = GetFinalPathNameByHandleW(handle.get(), buffer.data(), static_cast<DWORD>(buffer.size()),
                                                 FILE_NAME_NORMALIZED | VOLUME_NAME_DOS);
    if (size == 0) {
      throw Error(kIoFailure, fmt::format("resolve {}: {}", narrow(entry), win32_error_text(GetLastError())));
    }
    if (size < buffer.size()) {
      buffer.resize(size);
      return buffer;
    }
    buffer.resize(size);
  }
}

// What the reparse point at `entry` names. nullopt: Windows says it is one
// but gives no reparse data (Wine's Unix links).
std::optional<platform::ReparseTarget> read_reparse_target(const std::wstring& entry) {
  Win32Handle handle(CreateFileW(entry.c_str(), FILE_READ_ATTRIBUTES,
                                 FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_EXISTING,
                                 FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, nullptr));
  if (!handle.valid()) {
    throw Error(kIoFailure, fmt::format("open {}: {}", narrow(entry), win32_error_text(GetLastError())));
  }
  std::string data(MAXIMUM_REPARSE_DATA_BUFFER_SIZE, '\0');
  DWORD size = 0;
  if (!DeviceIoControl(handle.get(), FSCTL_GET_REPARSE_POINT, nullptr, 0, data.data(), static_cast<DWORD>(data.size()),
                       &size, nullptr)) {
    const DWORD err = GetLastError();
    if (err == ERROR_NOT_A_REPARSE_POINT) return std::nullopt;
    throw Error(kIoFailure, fmt::format("read the link {}: {}", narrow(entry), win32_error_text(err)));
  }
  data.resize(size);
  return platform::parse_reparse_target(data);
}

void push_names_front(const std::wstring& names, std::deque<std::wstring>& pending) {
  std::deque<std::wstring> split;
  std::size_t at = 0;
  while (at <= names.size()) {
    std::size_t stop = names.find_first_of(L"\\/", at);
    if (stop == std::wstring::npos) stop = names.size();
    if (stop > at) split.push_back(names.substr(at, stop - at));
    at = stop + 1;
  }
  pending.insert(pending.begin(), split.begin(), split.end());
}

std::wstring child_of(const std::wstring& folder, const std::wstring& name) {
  return is_path_separator(folder.back()) ? folder + name : folder + L"\\" + name;
}

// Unity builds put private_files_win32.cpp's is_missing beside this one.
bool names_nothing(DWORD err) {
  return err == ERROR_FILE_NOT_FOUND || err == ERROR_PATH_NOT_FOUND || err == ERROR_INVALID_NAME;
}

}  // namespace

void require_administrators_only(const std::string& path) {
  const TrustedAccounts trusted;
  Rooted start = split_root(full_path(path), path);
  std::deque<std::wstring> pending;
  push_names_front(start.rest, pending);
  // `at` holds no link: each is replaced by where it leads as it is met.
  std::wstring root = start.root;
  std::wstring at = root;
  const auto check_root = [&] {
    if (GetFileAttributesW(root.c_str()) == INVALID_FILE_ATTRIBUTES) {
      const DWORD err = GetLastError();
      if (names_nothing(err)) return false;  // no such drive or share: nothing there to replace
      throw Error(kIoFailure, fmt::format("read {}: {}", narrow(root), win32_error_text(err)));
    }
    check_entry(narrow(root), path, pending.empty() ? Role::kLeaf : Role::kAbove, trusted);
    return true;
  };
  if (!check_root()) return;
  int links = 0;
  while (!pending.empty()) {
    const std::wstring name = pending.front();
    pending.pop_front();
    if (name == L".") continue;
    if (name == L"..") {
      if (at.size() > root.size()) {
        const auto cut = at.find_last_of(L'\\');
        at.resize(cut == std::wstring::npos || cut < root.size() ? root.size() : cut);
      }
      continue;
    }
    const std::wstring entry = child_of(at, name);
    const DWORD attributes = GetFileAttributesW(entry.c_str());
    if (attributes == INVALID_FILE_ATTRIBUTES) {
      const DWORD err = GetLastError();
      if (names_nothing(err)) return;  // the rest is created private
      throw Error(kIoFailure, fmt::format("read {}: {}", narrow(entry), win32_error_text(err)));
    }
    std::optional<platform::ReparseTarget> link;
    if ((attributes & FILE_ATTRIBUTE_REPARSE_POINT) != 0) {
      link = read_reparse_target(entry);
      if (link && link->kind == platform::ReparseTarget::Kind::kNotALink)
        link.reset();
      else if (!link)
        link = platform::ReparseTarget{platform::ReparseTarget::Kind::kUnknownLink, {}, false};
    }
    if (!link) {
      check_entry(narrow(entry), path, pending.empty() ? Role::kLeaf : Role::kAbove, trusted);
      at = entry;
      continue;
    }
    check_entry(narrow(entry), path, Role::kLink, trusted);
    if (++links > kMostLinks) {
      refuse(narrow(entry), path, Role::kLink, fmt::format("a path through more than {} links", kMostLinks));
    }
    std::wstring target(link->target.begin(), link->target.end());
    if (link->kind == platform::ReparseTarget::Kind::kUnknownLink) {
      // No reparse data to read (Wine) or a kind not read here: where the
      // whole chain ends, from Windows itself.
      target = final_path(entry);
    }
    if (link->relative) {
      // "\x" is from the root of the link's drive; anything else from its folder.
      if (!target.empty() && is_path_separator(target.front())) at = root;
      push_names_front(target, pending);
      continue;
    }
    const Rooted next = split_root(target, path);
    push_names_front(next.rest, pending);
    root = next.root;
    at = root;
    if (!check_root()) return;
  }
}

}  // namespace wincni::os::private_files
