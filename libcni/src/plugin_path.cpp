#include "wincni/cni/plugin_path.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "wincni/cni/error.hpp"
#include "wincni/os/private_files.hpp"

namespace wincni::cni {
namespace {

std::string_view directory_separators(PathFlavor flavor) { return flavor == PathFlavor::kWindows ? "/\\" : "/"; }

std::vector<std::string_view> extensions(PathFlavor flavor) {
  if (flavor == PathFlavor::kWindows) return {kWindowsExecutableSuffix, ""};
  return {""};
}

}  // namespace

std::vector<std::string> split_plugin_path(std::string_view cni_path, PathFlavor flavor) {
  const char separator = flavor == PathFlavor::kWindows ? ';' : ':';
  std::vector<std::string> dirs;
  std::string current;
  bool quoted = false;
  auto flush = [&] {
    if (!current.empty()) dirs.push_back(std::move(current));
    current.clear();
  };
  for (const char c : cni_path) {
    if (flavor == PathFlavor::kWindows && c == '"') {
      quoted = !quoted;
    } else if (c == separator && !quoted) {
      flush();
    } else {
      current += c;
    }
  }
  flush();
  return dirs;
}

std::string find_plugin(std::string_view name, const std::vector<std::string>& dirs, PathFlavor flavor) {
  if (name.empty()) throw Error(kInvalidNetworkConfig, "no plugin name provided");
  if (name.find_first_of(directory_separators(flavor)) != std::string_view::npos) {
    throw Error(kInvalidNetworkConfig, "invalid plugin name", std::string(name));
  }
  if (dirs.empty()) throw Error(kInvalidEnvironment, "no paths provided", "CNI_PATH is empty");
  std::vector<std::string_view> relative;
  for (const auto& dir : dirs) {
    if (dir.empty()) continue;
    // Relative to whatever folder the runtime runs in (System32 for a
    // Windows service): never searched.
    if (!os::private_files::starts_at_root(dir)) {
      relative.push_back(dir);
      continue;
    }
    for (const auto ext : extensions(flavor)) {
      // Joined for the file system we are about to look at, so by the
      // platform we run on, whatever flavor the CNI_PATH syntax has.
      auto candidate = os::private_files::join(dir, std::string(name) + std::string(ext));
      if (os::private_files::is_regular_file(candidate)) return candidate;
    }
  }
  std::string message = fmt::format("failed to find plugin \"{}\" in path [{}]", name, fmt::join(dirs, " "));
  // Counted, not listed again: the path above already names them.
  if (!relative.empty()) message += fmt::format(" ({} relative, not searched)", relative.size());
  throw Error(kInvalidNetworkConfig, message);
}

}  // namespace wincni::cni
