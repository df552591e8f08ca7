#include <windows.h>

#include <stdexcept>

#include <fmt/format.h>

#include "wincni/os/program_files.hpp"
#include "wincni/os/utf16.hpp"
#include "wincni/os/win32_error_text.hpp"

namespace wincni::os::program_files {

namespace {

[[noreturn]] void fail(DWORD err, std::string_view op, const std::string& path) {
  throw std::runtime_error(fmt::format("{} {}: {}", op, path, os::win32_error_text(err)));
}

// What Windows answers for a program file that is running: its image is
// mapped, which forbids writing over it and deleting it.
bool is_busy(DWORD err) { return err == ERROR_ACCESS_DENIED; }

// A sharing violation is someone holding the file open for a moment (a
// virus scanner reading the new copy): worth a few tries, with a pause,
// before it counts as an error.
template <typename Attempt>
BOOL with_sharing_retries(Attempt attempt) {
  DWORD pause_ms = 50;
  for (int tries = 1;; ++tries) {
    if (attempt()) return TRUE;
    if (GetLastError() != ERROR_SHARING_VIOLATION || tries == 5) return FALSE;
    Sleep(pause_ms);
    pause_ms *= 2;
  }
}

}  // namespace

std::string own_directory() {
  std::wstring path(MAX_PATH, L'\0');
  for (;;) {
    const DWORD n = GetModuleFileNameW(nullptr, path.data(), static_cast<DWORD>(path.size()));
    if (n == 0) fail(GetLastError(), "GetModuleFileName", "");
    if (n < path.size()) {
      path.resize(n);
      break;
    }
    path.resize(path.size() * 2);
  }
  return os::narrow(path.substr(0, path.find_last_of(L"\\/")));
}

void write_new_file(const std::string& path, std::string_view content) {
  const std::wstring wide = os::widen(path);
  HANDLE h = CreateFileW(wide.c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, nullptr);
  if (h == INVALID_HANDLE_VALUE) fail(GetLastError(), "create", path);
  DWORD err = ERROR_SUCCESS;
  while (!content.empty() && err == ERROR_SUCCESS) {
    DWORD written = 0;
    if (!WriteFile(h, content.data(), static_cast<DWORD>(content.size()), &written, nullptr)) {
      err = GetLastError();
    } else {
      content.remove_prefix(written);
    }
  }
  if (!CloseHandle(h) && err == ERROR_SUCCESS) err = GetLastError();
  if (err != ERROR_SUCCESS) {
    DeleteFileW(wide.c_str());
    fail(err, "write", path);
  }
}

Swap rename_over(const std::string& from, const std::string& to) {
  const std::wstring source = os::widen(from), target = os::widen(to);
  if (with_sharing_retries([&] { return MoveFileExW(source.c_str(), target.c_str(), MOVEFILE_REPLACE_EXISTING); })) {
    return Swap::Done;
  }
  const DWORD err = GetLastError();
  if (is_busy(err)) return Swap::TargetBusy;
  fail(err, "rename", to);
}

void rename_aside(const std::string& from, const std::string& to) {
  // A running program can be renamed: its image stays mapped under the new name.
  const std::wstring source = os::widen(from), target = os::widen(to);
  if (!with_sharing_retries([&] { return MoveFileExW(source.c_str(), target.c_str(), 0); })) {
    fail(GetLastError(), "rename", from);
  }
}

Removal remove_unless_busy(const std::string& path) {
  const std::wstring wide = os::widen(path);
  if (with_sharing_retries([&] { return DeleteFileW(wide.c_str()); })) return Removal::Removed;
  DWORD err = GetLastError();
  // A read-only file refuses deletion with the same error as a running one.
  const DWORD attributes = GetFileAttributesW(wide.c_str());
  if (err == ERROR_ACCESS_DENIED && attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_READONLY)) {
    SetFileAttributesW(wide.c_str(), attributes & ~FILE_ATTRIBUTE_READONLY);
    if (DeleteFileW(wide.c_str())) return Removal::Removed;
    err = GetLastError();
  }
  if (err == ERROR_FILE_NOT_FOUND || err == ERROR_PATH_NOT_FOUND) return Removal::Missing;
  if (is_busy(err)) return Removal::Busy;
  fail(err, "remove", path);
}

}  // namespace wincni::os::program_files
