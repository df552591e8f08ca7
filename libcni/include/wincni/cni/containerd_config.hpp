#pragma once
// Where containerd looks for CNI plugins and configs, read from its
// config.toml: the CRI plugin's `cni` table, whose name and keys depend on
// the file's `version` (docs/reference/containerd-config.md):
//   3 (containerd 2.x)  plugins.'io.containerd.cri.v1.runtime'.cni: bin_dirs
//                       (2.1 and later), or bin_dir (2.0's; 2.1 moves it
//                       into bin_dirs); conf_dir
//   2 (containerd 1.x)  plugins.'io.containerd.grpc.v1.cri'.cni: bin_dir, conf_dir
//   1 or none           plugins.cri.cni: bin_dir, conf_dir
// and containerd's built-in folders for what the file leaves out. The
// installer checks it (and with a flag patches it, as sig-windows-tools'
// Install-Containerd.ps1 does); hnsctl doctor reports a mismatch.

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "wincni/cni/env.hpp"
#include "wincni/cni/plugin_path.hpp"

namespace wincni::cni {

// A config.toml is a few KiB; a file near this size is not one, and is not
// read whole.
inline constexpr std::size_t kMaxContainerdConfigBytes = 4 << 20;

struct ContainerdConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// containerd's built-in CNI folders on this platform: on Windows
// %ProgramFiles%\containerd\cni\bin and ...\cni\conf; elsewhere
// /opt/cni/bin and /etc/cni/net.d.
struct ContainerdFolders {
  std::vector<std::string> bin_dirs;  // in the order CNI_PATH searches them
  std::string conf_dir;
};
ContainerdFolders containerd_builtin_folders(const Environment& env);

// containerd's own config file on Windows
// (%ProgramFiles%\containerd\config.toml); "" elsewhere, where tests name one and nothing is read
// unasked.
std::string containerd_default_config_file(const Environment& env);

struct ContainerdCniSettings {
  int config_version = 1;
  std::string section;  // the table, as TOML writes it
  ContainerdFolders folders;
  bool bin_dirs_from_file = false;  // else containerd's built-in
  bool conf_dir_from_file = false;
};

// What `config_toml` sets, and `builtin` (containerd_builtin_folders) for
// what it leaves out. Throws ContainerdConfigError naming the line for text
// that is not TOML this reader follows, an unknown version, or a key of the
// wrong type.
ContainerdCniSettings read_containerd_cni_settings(std::string_view config_toml, const ContainerdFolders& builtin);

// `config_toml` with the cni table set so that containerd searches
// `bin_dir` first (a version 3 file that has bin_dirs, containerd 2.1's: put
// first there, the others kept after it, a deprecated bin_dir emptied;
// otherwise bin_dir, the one key containerd 2.0 and 1.x know) and reads
// configs from `conf_dir`; every other byte as it was. Keys missing from an
// existing table are added under its header; a missing table is appended.
// A `conf_dir` of "" leaves conf_dir as it is. Throws ContainerdConfigError
// when the table is defined in a form this does not edit (dotted keys or an
// inline table in its parent).
std::string patch_containerd_cni_folders(std::string_view config_toml, const std::string& bin_dir,
                                         const std::string& conf_dir);

// Whether two spellings name one folder as the OS resolves them: on Windows
// ignoring ASCII case, '/' for '\' and trailing separators, and a folder
// from the root without a drive ("/etc/cni/net.d", as the plugins' defaults
// are written) taken to be on the other's drive.
bool same_folder(std::string_view a, std::string_view b, PathFlavor flavor = kNativePathFlavor);

// What keeps containerd from running the plugins in `bin_dir` with the
// configs in `conf_dir` (unless ""), one sentence each; empty when nothing
// does.
std::vector<std::string> containerd_folder_mismatches(const ContainerdCniSettings& settings, const std::string& bin_dir,
                                                      const std::string& conf_dir);

}  // namespace wincni::cni
