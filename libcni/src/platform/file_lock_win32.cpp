#include <windows.h>

#include <algorithm>

#include <fmt/format.h>

#include "no_follow_win32.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/cni/file_lock.hpp"
#include "wincni/cni/utf16.hpp"

namespace wincni::cni {

namespace {

// The longest pause between two tries of a bounded wait: every holder keeps
// a plugin's lock for milliseconds, and a waiter asleep after it is let go
// is latency every queued pod pays (host-local's lock, 50 pods at once).
constexpr std::chrono::milliseconds kLongestPause(5);
[[noreturn]] void fail(const char* what, const std::string& path, DWORD error) {
  throw Error(kIoFailure, fmt::format("cannot {} {}: Windows error {}", what, path, error));
}
}  // namespace

std::intptr_t FileLock::open_lock_file(const std::string& path) {
  std::wstring wide_path;
  try {
    wide_path = widen(path);
  } catch (const Utf16Error&) {
    throw Error(kIoFailure, fmt::format("cannot open the lock file {}: the path is not valid UTF-8", path));
  }
  // The reference opens its lock file sharing read and write; ours must let
  // it in and be let in by it. Never through a link or junction
  // (no_follow_win32.hpp): SYSTEM would create the file wherever it leads.
  const platform::NoFollowOpen opened = platform::create_file_no_follow(
      wide_path, GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr, OPEN_ALWAYS);
  if (opened.link) {
    throw Error(kIoFailure, fmt::format("cannot open the lock file {}: a link or junction, refused", path));
  }
  HANDLE file = opened.handle;
  if (file == INVALID_HANDLE_VALUE) fail("open the lock file", path, GetLastError());
  return reinterpret_cast<std::intptr_t>(file);
}

FileLock::FileLock(const std::string& path) {
  HANDLE file = reinterpret_cast<HANDLE>(open_lock_file(path));
  OVERLAPPED first_byte{};
  if (!LockFileEx(file, LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, &first_byte)) {
    const DWORD error = GetLastError();
    CloseHandle(file);
    fail("lock", path, error);
  }
  handle_ = reinterpret_cast<std::intptr_t>(file);
}

FileLock::FileLock(const std::string& path, std::chrono::milliseconds limit) {
  HANDLE file = reinterpret_cast<HANDLE>(open_lock_file(path));
  // A day at most: a limit from the environment near the clock's range
  // would overflow the deadline.
  limit = std::min<std::chrono::milliseconds>(limit, std::chrono::hours(24));
  const auto deadline = std::chrono::steady_clock::now() + limit;
  auto pause = std::chrono::milliseconds(1);
  for (;;) {
    OVERLAPPED first_byte{};
    if (LockFileEx(file, LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &first_byte)) break;
    const DWORD error = GetLastError();
    if (error != ERROR_LOCK_VIOLATION || std::chrono::steady_clock::now() >= deadline) {
      CloseHandle(file);
      if (error != ERROR_LOCK_VIOLATION) fail("lock", path, error);
      throw Error(kTryAgainLater,
                  fmt::format("waited {} ms for the lock {}: another process holds it", limit.count(), path));
    }
    Sleep(static_cast<DWORD>(pause.count()));
    pause = std::min(pause * 2, kLongestPause);
  }
  handle_ = reinterpret_cast<std::intptr_t>(file);
}

FileLock::~FileLock() {
  HANDLE file = reinterpret_cast<HANDLE>(handle_);
  OVERLAPPED first_byte{};
  UnlockFileEx(file, 0, 1, 0, &first_byte);
  CloseHandle(file);
}

}  // namespace wincni::cni
