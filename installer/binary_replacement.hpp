#pragma once
// Putting a new build of a binary in the runtime's bin folder while the
// runtime may be running the old one. The new file is written next to it
// (<name>.new-<8 hex>) and renamed over it, so a runtime starting the
// plugin finds the old file or the new one, never half of one. Windows
// refuses to replace a running program but lets it be renamed: it is
// moved aside first (<name>.old-<8 hex>) and keeps running from there, and
// a later run removes it once nothing runs it. An unchanged binary is left
// alone, so a second run changes nothing.

#include <string>
#include <string_view>
#include <vector>

namespace wincni::installer {

struct BinaryChange {
  enum class Kind { Unchanged, Installed, Replaced, ReplacedRunning };
  Kind kind = Kind::Unchanged;
  std::string path;
  std::string moved_aside_to;  // ReplacedRunning only: the running one's new path
};

// Installs `content` (the new build) as bin_dir/file_name.
BinaryChange install_binary(std::string_view content, const std::string& bin_dir, const std::string& file_name);

// The name a new copy of `file_name` is written under before it is renamed
// into place: <file_name>.new-<8 hex>, which remove_leftovers recognises.
std::string new_copy_name(std::string_view file_name);

struct Leftover {
  std::string path;
  bool removed = false;  // false: still running (or not removable), kept for a later run
};

// The files an earlier run left beside `file_names` in bin_dir: the ones it
// moved aside, and new copies a killed run never renamed. Removed unless
// still running.
std::vector<Leftover> remove_leftovers(const std::string& bin_dir, const std::vector<std::string>& file_names);
// Its report line: "<path>: removed (left by an earlier run)" or kept.
std::string describe(const Leftover& leftover);

}  // namespace wincni::installer
