#include <windows.h>

#include <climits>

#include <fmt/format.h>

#include "private_security_win32.hpp"
#include "wincni/cni/append_file.hpp"
#include "wincni/cni/utf16.hpp"

namespace wincni::cni {

namespace {

// Writers serialise on one byte no file will ever reach, so the lock never
// covers data a reader wants and is the same byte for every writer.
constexpr DWORD kLockOffsetHigh = 0x7fffffff;

}  // namespace

AppendFile::AppendFile(const std::string& path) {
  std::wstring wide_path;
  try {
    wide_path = widen(path);
  } catch (const Utf16Error& bad) {
    error_ = bad.what();
    return;
  }
  // Never through a link or junction, and created private: a log names
  // pods, addresses and configs.
  const DWORD attributes = GetFileAttributesW(wide_path.c_str());
  if (attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_REPARSE_POINT) != 0) {
    error_ = "a link or junction, refused";
    return;
  }
  platform::PrivateSecurity security;
  HANDLE file = CreateFileW(wide_path.c_str(), GENERIC_WRITE,
                            FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, security.get(), OPEN_ALWAYS,
                            FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT, nullptr);
  if (file == INVALID_HANDLE_VALUE) {
    error_ = fmt::format("Windows error {}", GetLastError());
    return;
  }
  BY_HANDLE_FILE_INFORMATION info{};
  if (GetFileInformationByHandle(file, &info) && (info.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) != 0) {
    CloseHandle(file);
    error_ = "a link or junction, refused";
    return;
  }
  handle_ = reinterpret_cast<std::intptr_t>(file);
  LARGE_INTEGER size{};
  if (GetFileSizeEx(file, &size)) size_ = static_cast<std::uint64_t>(size.QuadPart);
}

AppendFile::~AppendFile() {
  if (is_open()) CloseHandle(reinterpret_cast<HANDLE>(handle_));
}

void AppendFile::append(std::string_view text) {
  if (!is_open() || text.size() > static_cast<size_t>(INT_MAX)) return;
  HANDLE file = reinterpret_cast<HANDLE>(handle_);
  OVERLAPPED lock_byte{};
  lock_byte.OffsetHigh = kLockOffsetHigh;
  const bool locked = LockFileEx(file, LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, &lock_byte) != 0;
  // Under the lock nobody else writes, so the end found here is where this
  // line goes (an append-only handle alone is not enough under Wine).
  LARGE_INTEGER end{};
  SetFilePointerEx(file, LARGE_INTEGER{}, &end, FILE_END);
  DWORD written = 0;
  WriteFile(file, text.data(), static_cast<DWORD>(text.size()), &written, nullptr);
  if (locked) UnlockFileEx(file, 0, 1, 0, &lock_byte);
}

}  // namespace wincni::cni
