#include <windows.h>

#include <climits>

#include <fmt/format.h>

#include "no_follow_win32.hpp"
#include "private_security_win32.hpp"
#include "wincni/os/append_file.hpp"
#include "wincni/os/utf16.hpp"

namespace wincni::os {

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
  platform::PrivateSecurity security;
  const platform::NoFollowOpen opened = platform::create_file_no_follow(
      wide_path, GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, security.get(), OPEN_ALWAYS);
  if (opened.link) {
    error_ = "a link or junction, refused";
    return;
  }
  HANDLE file = opened.handle;
  if (file == INVALID_HANDLE_VALUE) {
    error_ = fmt::format("Windows error {}", GetLastError());
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

}  // namespace wincni::os
