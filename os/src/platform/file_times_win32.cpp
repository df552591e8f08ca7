#include <windows.h>

#include <cstdint>
#include <limits>
#include <optional>

#include "wincni/os/file_times.hpp"
#include "wincni/os/utf16.hpp"
#include "wincni/os/win32_handle.hpp"

namespace wincni::os::file_times {

namespace {

// FILETIME counts 100 ns steps since 1601.
constexpr std::int64_t kUnixEpochInFileTimeTicks = 116'444'736'000'000'000;
constexpr std::int64_t kNanosecondsPerFileTimeTick = 100;

// Directories open only with backup semantics. Without
// FILE_FLAG_OPEN_REPARSE_POINT a link is followed: the times read and set
// are its target's, whose entries are the ones that change.
HANDLE open_attributes(const std::string& path, DWORD access) {
  return CreateFileW(widen(path).c_str(), access, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                     OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr);
}

}  // namespace

bool entry_exists(const std::string& path) {
  if (GetFileAttributesW(widen(path).c_str()) != INVALID_FILE_ATTRIBUTES) return true;
  const DWORD err = GetLastError();
  return err != ERROR_FILE_NOT_FOUND && err != ERROR_PATH_NOT_FOUND;
}

std::optional<std::int64_t> last_write_time_ns(const std::string& path) {
  const Win32Handle h(open_attributes(path, FILE_READ_ATTRIBUTES));
  FILETIME written;
  if (!h.valid() || !GetFileTime(h.get(), nullptr, nullptr, &written)) return std::nullopt;
  const auto ticks =
      static_cast<std::int64_t>((static_cast<std::uint64_t>(written.dwHighDateTime) << 32) | written.dwLowDateTime);
  // Nanoseconds since 1970 in 64 bits reach from 1677 to 2262; a time
  // outside (FILETIME 0 is 1601) is one that cannot be read.
  const std::int64_t since_epoch = ticks - kUnixEpochInFileTimeTicks;
  const std::int64_t reach = std::numeric_limits<std::int64_t>::max() / kNanosecondsPerFileTimeTick;
  if (since_epoch > reach || since_epoch < -reach) return std::nullopt;
  return since_epoch * kNanosecondsPerFileTimeTick;
}

bool set_last_write_time_ns(const std::string& path, std::int64_t ns) {
  const auto ticks = static_cast<std::uint64_t>(ns / kNanosecondsPerFileTimeTick + kUnixEpochInFileTimeTicks);
  const FILETIME written{static_cast<DWORD>(ticks & 0xffffffffU), static_cast<DWORD>(ticks >> 32)};
  {
    const Win32Handle h(open_attributes(path, FILE_WRITE_ATTRIBUTES));
    if (!h.valid() || !SetFileTime(h.get(), nullptr, nullptr, &written)) return false;
  }
  return last_write_time_ns(path) == ns;
}

}  // namespace wincni::os::file_times
