#pragma once
// Whether a name is taken, and the last-write time of files and directories:
// what host-local's owner index needs to tell whether anything changed in a
// directory behind its back (ipam/host-local/directory_seal.hpp). Links are
// followed, so a directory reached through one is the directory itself.

#include <cstdint>
#include <optional>
#include <string>

namespace wincni::os::file_times {

// Whether anything has that name (a file, a directory, a link, dangling or
// not). An entry that cannot be looked at counts as there.
bool entry_exists(const std::string& path);

// In nanoseconds since 1970 (whole 100 ns steps on Windows); nullopt when it
// cannot be read.
std::optional<std::int64_t> last_write_time_ns(const std::string& path);
// False when the file system refuses or cannot keep the time exactly.
bool set_last_write_time_ns(const std::string& path, std::int64_t ns);

}  // namespace wincni::os::file_times
