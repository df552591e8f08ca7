#pragma once
// Finding a plugin's executable in CNI_PATH, with the rules of Go libcni's
// invoke.FindInPath (docs/reference/cni-protocol.md §2). The Windows rules are also
// available on Linux so that they can be tested natively.

#include <string>
#include <string_view>
#include <vector>

namespace wincni::cni {

enum class PathFlavor { kPosix, kWindows };

#ifdef _WIN32
inline constexpr PathFlavor kNativePathFlavor = PathFlavor::kWindows;
#else
inline constexpr PathFlavor kNativePathFlavor = PathFlavor::kPosix;
#endif

// What a program's file name ends in on Windows, and on this OS: the one
// suffix the plugin lookup, the installer and hnsctl's reading of configs
// share.
inline constexpr std::string_view kWindowsExecutableSuffix = ".exe";
inline constexpr std::string_view kExecutableSuffix =
    kNativePathFlavor == PathFlavor::kWindows ? kWindowsExecutableSuffix : std::string_view();

// Splits a CNI_PATH value at ':' (POSIX) or ';' (Windows, where a double-quoted
// part may contain ';' and the quotes are removed, as Go's filepath.SplitList
// does). Empty elements are dropped rather than meaning "the current
// directory": plugins run with the runtime's privileges.
std::vector<std::string> split_plugin_path(std::string_view cni_path, PathFlavor flavor = kNativePathFlavor);

// The first `<dir>/<name><ext>` that is a regular file (symlinks followed),
// directories in order; ext is "" on POSIX, ".exe" then "" on Windows.
// Errors, with Go's messages (Go returns untyped errors; the codes are ours):
//   7 (invalid network config) "no plugin name provided": the name comes from the config
//   7 "invalid plugin name": it contains '/' (or '\' on Windows)
//   4 (invalid environment)    "no paths provided": CNI_PATH is empty
//   7 `failed to find plugin "x" in path [a b]`: the config names a plugin
//     this node does not have
// Paths are UTF-8 on both platforms.
std::string find_plugin(std::string_view name, const std::vector<std::string>& dirs,
                        PathFlavor flavor = kNativePathFlavor);

}  // namespace wincni::cni
