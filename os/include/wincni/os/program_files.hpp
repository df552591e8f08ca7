#pragma once
// The files programs run from, as an installer replaces them: a running
// program on Windows can be renamed but neither replaced nor deleted, and a
// copied binary must stay executable on POSIX (platform/program_files_*.cpp).
// Paths are UTF-8; failures throw an exception naming the operation, the
// path and the OS's text for the error.

#include <string>
#include <string_view>

namespace wincni::os::program_files {

// The folder the running executable is in.
std::string own_directory();

// Creates `path`, which must not exist, with `content`: the folder's
// default permissions, executable on POSIX. Removed again if writing fails.
void write_new_file(const std::string& path, std::string_view content);

enum class Swap { Done, TargetBusy };
// Renames `from` to `to`, replacing `to`. TargetBusy when `to` is a program
// that is running (Windows refuses to replace it).
Swap rename_over(const std::string& from, const std::string& to);

// Renames `from` to `to`, which must not exist.
void rename_aside(const std::string& from, const std::string& to);

enum class Removal { Removed, Busy, Missing };
// Busy when `path` is a program that is running (Windows refuses).
Removal remove_unless_busy(const std::string& path);

}  // namespace wincni::os::program_files
