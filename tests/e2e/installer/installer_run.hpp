#pragma once
// The installer as an operator runs it: wincni-install copied into a
// release-like folder with the suite's binaries (WINCNI_INSTALLER and
// WINCNI_SUITE_BINARIES name the built files), run with flags and WINCNI_*
// variables against folders in a scratch directory.

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "file_text.hpp"
#include "scratch_dir.hpp"
#include "wincni/cni/env.hpp"
#include "wincni/cni/plugin_path.hpp"
#include "wincni/os/process.hpp"

namespace wincni::test {

inline std::string required_env(const char* name) {
  const char* value = std::getenv(name);
  REQUIRE_MESSAGE(value != nullptr, name << " is not set: run the tests with meson test");
  return value;
}

inline std::vector<std::string> entries(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  if (!std::filesystem::is_directory(dir)) return names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

struct InstallerRun {
  int exit_code = -1;
  std::string out;
  std::string err;
  // The last report line about `path` ("" when there is none): what
  // finally happened to it, after a line about a copy kept.
  std::string line_about(const std::filesystem::path& path) const {
    const std::string prefix = path.string() + ": ";
    std::string found;
    size_t start = 0;
    while (start < out.size()) {
      size_t end = out.find('\n', start);
      if (end == std::string::npos) end = out.size();
      const std::string line = out.substr(start, end - start);
      if (line.rfind(prefix, 0) == 0) found = line.substr(prefix.size());
      start = end + 1;
    }
    return found;
  }
};

// A release folder (src/) with the installer and the binaries, and the
// node's folders: bin/, conf/, flanneld/.
class InstallerNode {
 public:
  InstallerNode() {
    std::filesystem::create_directories(source());
    installer_ = copy_in(required_env("WINCNI_INSTALLER"));
    for (const std::string& binary : cni::split_plugin_path(required_env("WINCNI_SUITE_BINARIES"))) {
      binaries_.push_back(std::filesystem::path(copy_in(binary)).filename().string());
    }
    REQUIRE(binaries_.size() == 5);
    std::sort(binaries_.begin(), binaries_.end());
  }

  std::filesystem::path source() const { return dir_ / "src"; }
  std::filesystem::path bin() const { return dir_ / "bin"; }
  std::filesystem::path conf() const { return dir_ / "conf"; }
  std::filesystem::path flanneld() const { return dir_ / "flanneld"; }
  std::filesystem::path path(const std::string& name) const { return dir_ / name; }
  const std::vector<std::string>& binaries() const { return binaries_; }
  // flannel's file name on this platform.
  std::string binary(const std::string& stem) const {
    for (const std::string& name : binaries_) {
      if (std::filesystem::path(name).stem() == stem) return name;
    }
    FAIL("no binary " << stem);
    return "";
  }

  // The node's folders as flags, so that nothing goes to C:\ or /opt.
  std::vector<std::string> folder_flags() const {
    return {"--bin-dir", bin().string(), "--conf-dir", conf().string(), "--flanneld-conf-dir", flanneld().string()};
  }

  InstallerRun run(std::vector<std::string> args, const std::map<std::string, std::string>& variables = {}) const {
    cni::Environment env;
    for (const char* name : {"PATH", "SystemRoot", "WINEPREFIX", "WINEDEBUG", "TEMP", "TMP"}) {
      if (const char* value = std::getenv(name)) env.set(name, value);
    }
    for (const auto& [name, value] : variables) env.set(name, value);
    os::ProcessSpec spec;
    spec.program = installer_;
    spec.args = std::move(args);
    spec.env = env.to_list();
    spec.timeout = std::chrono::seconds(120);
    const os::ProcessOutcome outcome = os::run_process(spec);
    REQUIRE_FALSE(outcome.timed_out);
    return {outcome.exit_code, outcome.out, outcome.err};
  }

  // A full installation's flags: the node's folders and a service network.
  InstallerRun install(std::vector<std::string> extra = {},
                       const std::map<std::string, std::string>& variables = {}) const {
    std::vector<std::string> args = folder_flags();
    args.insert(args.end(), extra.begin(), extra.end());
    return run(args, variables);
  }

 private:
  std::string copy_in(const std::string& built) {
    const std::filesystem::path target = source() / std::filesystem::path(built).filename();
    std::filesystem::copy_file(built, target);
    return target.string();
  }

  ScratchDir dir_;
  std::string installer_;
  std::vector<std::string> binaries_;
};

}  // namespace wincni::test
