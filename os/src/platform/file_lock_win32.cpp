#include <windows.h>

#include <fmt/format.h>

#include "no_follow_win32.hpp"
#include "wincni/os/error.hpp"
#include "wincni/os/file_lock.hpp"
#include "wincni/os/utf16.hpp"

namespace wincni::os {

namespace {

[[noreturn]] void fail(const char* what, const std::string& path, DWORD error) {
  throw Error(kIoFailure, fmt::format("cannot {} {}: Windows error {}", what, path, error));
}

// The bytes locked, from byte 0. kFlock: the first, as the reference
// plugins lock. kRecord: to the end and beyond, which Wine hands the kernel
// as a whole-file fcntl lock (l_start 0, l_len 0), the very range
// file_lock_posix.cpp takes.
struct Range {
  DWORD low;
  DWORD high;
};
constexpr Range kFirstByte{1, 0};
constexpr Range kWholeFile{MAXDWORD, MAXDWORD};

Range range_of(FileLock::Family family) { return family == FileLock::Family::kRecord ? kWholeFile : kFirstByte; }

}  // namespace

std::intptr_t FileLock::open_lock_file(const std::string& path, Family) {
  std::wstring wide_path;
  try {
    wide_path = widen(path);
  } catch (const Utf16Error&) {
    throw Error(kIoFailure, fmt::format("cannot open the lock file {}: the path is not valid UTF-8", path));
  }
  // The reference opens its lock file sharing read and write; ours must let
  // it in and be let in by it. Never through a link or junction
  // (no_follow_win32.hpp): SYSTEM would create the file wherever it leads.
  // Read and write access: Wine needs a readable file for a shared fcntl
  // lock and a writable one for an exclusive lock.
  const platform::NoFollowOpen opened = platform::create_file_no_follow(
      wide_path, GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr, OPEN_ALWAYS);
  if (opened.link) {
    throw Error(kIoFailure, fmt::format("cannot open the lock file {}: a link or junction, refused", path));
  }
  HANDLE file = opened.handle;
  if (file == INVALID_HANDLE_VALUE) fail("open the lock file", path, GetLastError());
  return reinterpret_cast<std::intptr_t>(file);
}

bool FileLock::try_lock(std::intptr_t handle, Sharing sharing, Family family, bool wait, const std::string& path) {
  OVERLAPPED from_start{};
  const DWORD flags =
      (sharing == Sharing::kExclusive ? LOCKFILE_EXCLUSIVE_LOCK : 0) | (wait ? 0 : LOCKFILE_FAIL_IMMEDIATELY);
  const Range range = range_of(family);
  if (LockFileEx(reinterpret_cast<HANDLE>(handle), flags, 0, range.low, range.high, &from_start)) return true;
  const DWORD error = GetLastError();
  if (!wait && error == ERROR_LOCK_VIOLATION) return false;
  fail("lock", path, error);
}

void FileLock::close_lock_file(std::intptr_t handle) {
  HANDLE file = reinterpret_cast<HANDLE>(handle);
  // Whichever range this handle holds; the other call finds nothing to undo.
  for (const Range range : {kFirstByte, kWholeFile}) {
    OVERLAPPED from_start{};
    UnlockFileEx(file, 0, range.low, range.high, &from_start);
  }
  CloseHandle(file);
}

}  // namespace wincni::os
