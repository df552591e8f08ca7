// Paths arrive as UTF-8 and go to the wide Win32 API.

#include <windows.h>
#include <sddl.h>

#include <cstdint>
#include <memory>

#include <fmt/format.h>

#include "no_follow_win32.hpp"
#include "private_security_win32.hpp"
#include "wincni/os/error.hpp"
#include "wincni/os/private_files.hpp"
#include "wincni/os/utf16.hpp"
#include "wincni/os/win32_handle.hpp"
#include "wincni/os/win32_error_text.hpp"

namespace wincni::os::private_files {

namespace {

[[noreturn]] void fail(std::string_view op, const std::string& path, DWORD err) {
  throw Error(kIoFailure, fmt::format("{} {}: {}", op, path, win32_error_text(err)));
}

bool is_missing(DWORD err) { return err == ERROR_FILE_NOT_FOUND || err == ERROR_PATH_NOT_FOUND; }

using platform::PrivateSecurity;
using Handle = Win32Handle;

HANDLE open_file(const std::string& path, DWORD access, DWORD disposition, SECURITY_ATTRIBUTES* security = nullptr) {
  return CreateFileW(widen(path).c_str(), access, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, security,
                     disposition, FILE_ATTRIBUTE_NORMAL, nullptr);
}

// Opens a private file for writing, never through a link or junction
// (no_follow_win32.hpp).
HANDLE open_for_writing(const std::string& path, DWORD disposition, SECURITY_ATTRIBUTES* security) {
  const platform::NoFollowOpen opened = platform::create_file_no_follow(
      widen(path), GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, security, disposition);
  if (opened.link) throw Error(kIoFailure, fmt::format("open {}: a link or junction, refused", path));
  return opened.handle;
}

void write_all(HANDLE h, std::string_view content, const std::string& path) {
  while (!content.empty()) {
    DWORD written = 0;
    if (!WriteFile(h, content.data(), static_cast<DWORD>(content.size()), &written, nullptr)) {
      fail("write", path, GetLastError());
    }
    content.remove_prefix(written);
  }
}

bool is_separator(char c) { return c == '\\' || c == '/'; }

// A private file with `content`, removed again when writing fails.
void write_staged(const std::string& staged, std::string_view content, Durability durability = Durability::kCached) {
  PrivateSecurity security;
  Handle h(open_for_writing(staged, CREATE_ALWAYS, security.get()));
  if (!h.valid()) fail("open", staged, GetLastError());
  try {
    write_all(h.get(), content, staged);
    if (durability == Durability::kFlushed && !FlushFileBuffers(h.get())) fail("flush", staged, GetLastError());
    if (!h.close()) fail("close", staged, GetLastError());
  } catch (...) {
    DeleteFileW(widen(staged).c_str());
    throw;
  }
}

}  // namespace

std::string join(std::string_view dir, std::string_view name) {
  std::string out(dir);
  if (!out.empty() && !is_separator(out.back())) out += '\\';
  out += name;
  return out;
}

FolderAndName split_last(std::string_view path) {
  const std::size_t separator = path.find_last_of("/\\");
  if (separator == std::string_view::npos) return {".", std::string(path)};
  const bool at_root = separator == 0 || (separator == 2 && path[1] == ':');
  return {std::string(path.substr(0, at_root ? separator + 1 : separator)), std::string(path.substr(separator + 1))};
}

bool starts_at_root(std::string_view path) {
  const std::size_t after_drive = path.size() >= 2 && path[1] == ':' ? 2 : 0;
  return path.size() > after_drive && is_separator(path[after_drive]);
}

bool is_directory(const std::string& path) {
  const DWORD attributes = GetFileAttributesW(widen(path).c_str());
  return attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_DIRECTORY) != 0;
}

// A link's own attributes say only that it is one, so a link is opened to
// look at what it leads to (nothing, for a dangling one), as stat does.
bool is_regular_file(const std::string& path) {
  const std::wstring wide = widen(path);
  DWORD attributes = GetFileAttributesW(wide.c_str());
  if (attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_REPARSE_POINT) != 0) {
    Win32Handle target(CreateFileW(wide.c_str(), FILE_READ_ATTRIBUTES,
                                   FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_EXISTING,
                                   FILE_FLAG_BACKUP_SEMANTICS, nullptr));
    BY_HANDLE_FILE_INFORMATION info{};
    const bool followed = target.valid() && GetFileInformationByHandle(target.get(), &info);
    attributes = followed ? info.dwFileAttributes : INVALID_FILE_ATTRIBUTES;
  }
  return attributes != INVALID_FILE_ATTRIBUTES &&
         (attributes & (FILE_ATTRIBUTE_DIRECTORY | FILE_ATTRIBUTE_DEVICE)) == 0;
}

bool is_link(const std::string& path) { return platform::is_reparse_point(widen(path)); }

void create_private_directories(const std::string& path) {
  if (path.empty() || is_directory(path)) return;
  size_t end = path.size();
  while (end > 0 && is_separator(path[end - 1])) --end;
  size_t cut = end;
  while (cut > 0 && !is_separator(path[cut - 1])) --cut;
  // Stop at a root ("C:\", "\", "\\server\share\" are never created).
  if (cut > 1 && !(cut == 3 && path[1] == ':')) create_private_directories(path.substr(0, cut - 1));
  PrivateSecurity security;
  if (!CreateDirectoryW(widen(path).c_str(), security.get())) {
    const DWORD err = GetLastError();
    if (!(err == ERROR_ALREADY_EXISTS && is_directory(path))) fail("mkdir", path, err);
  }
}

std::vector<DirEntry> list_directory(const std::string& path) {
  WIN32_FIND_DATAW data;
  HANDLE find = FindFirstFileExW(widen(join(path, "*")).c_str(), FindExInfoBasic, &data, FindExSearchNameMatch, nullptr,
                                 FIND_FIRST_EX_LARGE_FETCH);
  if (find == INVALID_HANDLE_VALUE) fail("open", path, GetLastError());
  std::vector<DirEntry> entries;
  do {
    const std::wstring_view name = data.cFileName;
    if (name == L"." || name == L"..") continue;
    const bool regular = (data.dwFileAttributes & (FILE_ATTRIBUTE_DIRECTORY | FILE_ATTRIBUTE_REPARSE_POINT)) == 0;
    entries.push_back({narrow(name), regular});
  } while (FindNextFileW(find, &data));
  const DWORD err = GetLastError();
  FindClose(find);
  if (err != ERROR_NO_MORE_FILES) fail("readdir", path, err);
  return entries;
}

std::optional<std::string> read_file(const std::string& path) { return read_file(path, SIZE_MAX); }

std::optional<std::string> read_file(const std::string& path, std::size_t max_bytes) {
  Handle h(open_file(path, GENERIC_READ, OPEN_EXISTING));
  if (!h.valid()) {
    const DWORD err = GetLastError();
    if (is_missing(err)) return std::nullopt;
    fail("open", path, err);
  }
  const auto too_big = [&] {
    return FileTooLarge(kIoFailure, fmt::format("read {}: more than {} bytes", path, max_bytes));
  };
  LARGE_INTEGER size{};
  if (GetFileSizeEx(h.get(), &size) && static_cast<std::uint64_t>(size.QuadPart) > max_bytes) throw too_big();
  std::string content;
  char buffer[512];
  for (;;) {
    DWORD n = 0;
    if (!ReadFile(h.get(), buffer, sizeof buffer, &n, nullptr)) fail("read", path, GetLastError());
    if (n == 0) break;
    if (n > max_bytes - content.size()) throw too_big();  // it grew
    content.append(buffer, n);
  }
  return content;
}

void overwrite_file(const std::string& path, std::string_view content) {
  PrivateSecurity security;
  Handle h(open_for_writing(path, CREATE_ALWAYS, security.get()));
  if (!h.valid()) fail("open", path, GetLastError());
  write_all(h.get(), content, path);
  if (!h.close()) fail("close", path, GetLastError());
}

bool publish_file_exclusive(const std::string& dir, std::string_view name, std::string_view staging,
                            std::string_view content) {
  const std::string target = join(dir, name);
  const std::string staged = join(dir, staging);
  write_staged(staged, content);
  // Without MOVEFILE_REPLACE_EXISTING the move fails when the name is taken.
  if (MoveFileExW(widen(staged).c_str(), widen(target).c_str(), 0)) return true;
  const DWORD err = GetLastError();
  DeleteFileW(widen(staged).c_str());
  if (err == ERROR_ALREADY_EXISTS || err == ERROR_FILE_EXISTS) return false;
  fail("rename", target, err);
}

void replace_file(const std::string& dir, std::string_view name, std::string_view staging, std::string_view content,
                  Durability durability) {
  const std::string target = join(dir, name);
  const std::string staged = join(dir, staging);
  write_staged(staged, content, durability);
  const DWORD flags = MOVEFILE_REPLACE_EXISTING | (durability == Durability::kFlushed ? MOVEFILE_WRITE_THROUGH : 0);
  if (MoveFileExW(widen(staged).c_str(), widen(target).c_str(), flags)) return;
  const DWORD err = GetLastError();
  DeleteFileW(widen(staged).c_str());
  fail("rename", target, err);
}

void move_over(const std::string& from, const std::string& to) {
  if (!MoveFileExW(widen(from).c_str(), widen(to).c_str(), MOVEFILE_REPLACE_EXISTING))
    fail("rename", from, GetLastError());
}

bool remove_file(const std::string& path) {
  if (DeleteFileW(widen(path).c_str())) return true;
  const DWORD err = GetLastError();
  if (is_missing(err)) return false;
  fail("remove", path, err);
}

bool remove_directory_if_empty(const std::string& path) {
  if (RemoveDirectoryW(widen(path).c_str())) return true;
  const DWORD err = GetLastError();
  if (is_missing(err) || err == ERROR_DIR_NOT_EMPTY) return false;
  fail("remove", path, err);
}

}  // namespace wincni::os::private_files
