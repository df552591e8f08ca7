#pragma once
// The few file-system operations host-local needs, with the platform
// differences (flock vs LockFileEx, POSIX modes vs ACLs, directory walking,
// ':' in file names) kept behind them. platform_fs_posix.cpp and
// platform_fs_win32.cpp are the only files that differ per platform.
// Paths are UTF-8. Failures throw cni::Error(kIoFailure).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wincni::hostlocal::platform {

// Windows file names cannot hold ':'; the reference writes '_' instead.
bool escapes_colons();

// The reference's default, "/var/lib/cni/networks", on every OS: on Windows
// it is \var\lib\cni\networks on the current drive.
std::string default_data_dir();

std::string join(std::string_view dir, std::string_view name);

// Like mkdir -p; what it creates is private to the owner (0700, or on
// Windows a protected ACL for SYSTEM and Administrators).
void create_private_directories(const std::string& path);
bool is_directory(const std::string& path);

struct DirEntry {
  std::string name;
  bool regular_file = false;
};
// Every entry but "." and "..", in no particular order.
std::vector<DirEntry> list_directory(const std::string& path);

// nullopt when the file does not exist.
std::optional<std::string> read_file(const std::string& path);

// Creates or truncates a private file. Not atomic: for hints a reader
// tolerates torn.
void overwrite_file(const std::string& path, std::string_view content);

// Publishes `content` as dir/name only when nothing has that name yet, so that
// a process killed at any instant leaves the file complete or absent: it is
// written to dir/staging, then renamed without replacing. False when the name
// is taken. Falls back to create-exclusive-then-write on file systems that
// cannot rename without replacing (a kill there can leave an empty file).
// Nothing is fsynced: a power loss can still leave an empty file, and it
// also ends every container; empty files are released by DEL and GC
// (owner.hpp), and an fsync per ADD would cost more than the whole ADD.
bool publish_file_exclusive(const std::string& dir, std::string_view name, std::string_view staging,
                            std::string_view content);

// False when there was nothing to remove.
bool remove_file(const std::string& path);

}  // namespace wincni::hostlocal::platform
