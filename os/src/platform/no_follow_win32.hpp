#pragma once
// Opening a plugin's own file on Windows without following a link or
// junction at its name: SYSTEM would otherwise create, truncate or append to
// whatever it leads to. One there is refused; one put there after that check
// is opened as itself (FILE_FLAG_OPEN_REPARSE_POINT), never followed, and
// refused too. Shared by the private files, the lock files and the log.

#include <windows.h>

#include <string>

namespace wincni::os::platform {

// A link or junction at `path`, not followed; false when absent.
inline bool is_reparse_point(const std::wstring& path) {
  const DWORD attributes = GetFileAttributesW(path.c_str());
  return attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_REPARSE_POINT) != 0;
}

struct NoFollowOpen {
  HANDLE handle = INVALID_HANDLE_VALUE;  // on failure GetLastError() says why, unless `link`
  bool link = false;                     // refused: a link or junction
};

// CreateFileW(path, access, share, security, disposition) as described above.
inline NoFollowOpen create_file_no_follow(const std::wstring& path, DWORD access, DWORD share,
                                          SECURITY_ATTRIBUTES* security, DWORD disposition) {
  if (is_reparse_point(path)) return {INVALID_HANDLE_VALUE, true};
  HANDLE handle = CreateFileW(path.c_str(), access, share, security, disposition,
                              FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT, nullptr);
  if (handle == INVALID_HANDLE_VALUE) return {};
  BY_HANDLE_FILE_INFORMATION info{};
  if (GetFileInformationByHandle(handle, &info) && (info.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) != 0) {
    CloseHandle(handle);
    return {INVALID_HANDLE_VALUE, true};
  }
  return {handle, false};
}

}  // namespace wincni::os::platform
