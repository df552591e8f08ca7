#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "scratch_dir.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/cni/plugin_path.hpp"

using wincni::cni::Error;
using wincni::cni::find_plugin;
using wincni::cni::PathFlavor;
using wincni::cni::split_plugin_path;
using wincni::test::ScratchDir;
using Strings = std::vector<std::string>;

namespace {

std::string touch(const std::filesystem::path& path) {
  std::ofstream(path) << "#!/bin/sh\n";
  return path.string();
}

Error find_error(std::string_view name, const Strings& dirs, PathFlavor flavor = wincni::cni::kNativePathFlavor) {
  try {
    find_plugin(name, dirs, flavor);
  } catch (const Error& e) {
    return e;
  }
  FAIL("find_plugin found ", name);
  return Error(0, "");
}

}  // namespace

TEST_CASE("split_plugin_path uses ':' on POSIX and drops empty elements") {
  CHECK(split_plugin_path("/opt/cni/bin:/usr/lib/cni", PathFlavor::kPosix) == Strings{"/opt/cni/bin", "/usr/lib/cni"});
  CHECK(split_plugin_path(":/a::/b:", PathFlavor::kPosix) == Strings{"/a", "/b"});
  CHECK(split_plugin_path("", PathFlavor::kPosix).empty());
  CHECK(split_plugin_path("C:\\a;C:\\b", PathFlavor::kPosix) == Strings{"C", "\\a;C", "\\b"});
}

TEST_CASE("split_plugin_path uses ';' on Windows, where quotes protect a ';'") {
  CHECK(split_plugin_path("C:\\k\\cni;D:\\bin", PathFlavor::kWindows) == Strings{"C:\\k\\cni", "D:\\bin"});
  CHECK(split_plugin_path("\"C:\\with;semi\";D:\\x", PathFlavor::kWindows) == Strings{"C:\\with;semi", "D:\\x"});
  CHECK(split_plugin_path(";;C:\\a;", PathFlavor::kWindows) == Strings{"C:\\a"});
  CHECK(split_plugin_path("\"\"", PathFlavor::kWindows).empty());
}

TEST_CASE("find_plugin rejects an empty or path-like name as invalid config") {
  ScratchDir dir;
  const Strings dirs{dir.path().string()};
  auto e = find_error("", dirs);
  CHECK(e.code() == wincni::cni::kInvalidNetworkConfig);
  CHECK(e.msg() == "no plugin name provided");
  e = find_error("../host-local", dirs);
  CHECK(e.code() == wincni::cni::kInvalidNetworkConfig);
  CHECK(e.msg() == "invalid plugin name");
  CHECK(find_error("sub\\host-local", dirs, PathFlavor::kWindows).msg() == "invalid plugin name");
  // A backslash is an ordinary file name character on POSIX.
  CHECK(find_error("sub\\host-local", dirs, PathFlavor::kPosix).msg().starts_with("failed to find plugin"));
}

TEST_CASE("find_plugin needs at least one path") {
  const auto e = find_error("host-local", {});
  CHECK(e.code() == wincni::cni::kInvalidEnvironment);
  CHECK(e.msg() == "no paths provided");
}

TEST_CASE("find_plugin names the plugin and every directory it searched") {
  ScratchDir a, b;
  const auto e = find_error("host-local", {a.path().string(), b.path().string()});
  CHECK(e.code() == wincni::cni::kInvalidNetworkConfig);
  CHECK(e.msg() ==
        "failed to find plugin \"host-local\" in path [" + a.path().string() + " " + b.path().string() + "]");
}

TEST_CASE("find_plugin searches the directories in order") {
  ScratchDir a, b;
  const Strings dirs{a.path().string(), b.path().string()};
  const auto in_b = touch(b / "host-local");
  CHECK(find_plugin("host-local", dirs) == in_b);
  const auto in_a = touch(a / "host-local");
  CHECK(find_plugin("host-local", dirs) == in_a);
}

// security review, finding 9: a relative CNI_PATH entry resolves in the
// runtime's working directory (System32 for a Windows service).
TEST_CASE("find_plugin never searches a relative folder, and says so") {
  ScratchDir dir;
  touch(dir / "host-local");
  const auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir.path());
  const auto e = find_error("host-local", {"."});
  std::filesystem::current_path(cwd);
  CHECK(e.code() == wincni::cni::kInvalidNetworkConfig);
  CHECK(e.msg() == "failed to find plugin \"host-local\" in path [.] (1 relative, not searched)");
}

TEST_CASE("find_plugin skips what is not a regular file") {
  ScratchDir a, b;
  std::filesystem::create_directory(a / "host-local");
  const auto in_b = touch(b / "host-local");
  CHECK(find_plugin("host-local", {a.path().string(), b.path().string()}) == in_b);
}

TEST_CASE("find_plugin on Windows prefers name.exe and falls back to the bare name") {
  ScratchDir dir;
  const Strings dirs{dir.path().string()};
  const auto bare = touch(dir / "win-bridge");
  CHECK(find_plugin("win-bridge", dirs, PathFlavor::kWindows) == bare);
  const auto exe = touch(dir / "win-bridge.exe");
  CHECK(find_plugin("win-bridge", dirs, PathFlavor::kWindows) == exe);
}

TEST_CASE("find_plugin on POSIX does not try .exe") {
  ScratchDir dir;
  touch(dir / "win-bridge.exe");
  CHECK(find_error("win-bridge", {dir.path().string()}, PathFlavor::kPosix).msg().starts_with("failed to find"));
}

TEST_CASE("find_plugin does not double a trailing separator") {
  ScratchDir dir;
  touch(dir / "bridge");
  const auto with_slash = dir.path().string() + "/";
  CHECK(find_plugin("bridge", {with_slash}, PathFlavor::kPosix) == with_slash + "bridge");
  CHECK(find_plugin("bridge", {with_slash}, PathFlavor::kWindows) == with_slash + "bridge");
}

#ifndef _WIN32
TEST_CASE("find_plugin follows symlinks to regular files") {
  ScratchDir dir;
  touch(dir / "real");
  std::filesystem::create_symlink(dir / "real", dir / "linked");
  std::filesystem::create_symlink(dir / "missing", dir / "dangling");
  CHECK(find_plugin("linked", {dir.path().string()}) == (dir / "linked").string());
  CHECK(find_error("dangling", {dir.path().string()}).msg().starts_with("failed to find"));
}
#endif
