#pragma once
// What wincni-install is asked to do, from its flags and, for each flag not
// given, the WINCNI_* variable of the same name (a HostProcess pod sets
// those from its manifest), then the defaults. Values are checked here, so
// that a bad one fails before anything on the node changes.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "network_settings.hpp"
#include "wincni/cni/containerd_config.hpp"
#include "wincni/cni/env.hpp"

namespace wincni::installer {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// containerd's config.toml, checked to point at the folders installed to
// (containerd_config_check.hpp).
struct ContainerdCheck {
  std::string config_file;  // "" when not checked
  bool config_file_given = false;
  bool patch = false;
  cni::ContainerdFolders builtin;  // what containerd uses for keys the file leaves out
};

struct InstallOptions {
  std::string source_dir;  // where the binaries are copied from; "" for the installer's own folder
  std::string bin_dir;
  std::string conf_dir;
  std::string conf_name;
  // Where flanneld's net-conf.json goes; written only with a cluster CIDR.
  std::string flanneld_conf_dir;
  NetworkSettings network;
  // Move the configs that would be loaded before ours aside
  // (config_takeover.hpp); without it they make the run fail.
  bool take_over = false;
  // Only the binaries: the node's CNI config and flanneld are someone
  // else's (rke2 and k3s write their own and run flanneld in their agent).
  bool binaries_only = false;
  ContainerdCheck containerd;
};

// What the command line asks for besides an installation.
enum class Request { Install, Uninstall, Help, Version, Layouts };

struct ParsedCommandLine {
  Request request = Request::Install;
  std::string help_text;
  InstallOptions options;
};

// `args` without the program name. Throws UsageError naming the flag (and
// the variable, when the value came from one).
ParsedCommandLine parse_command_line(const std::vector<std::string>& args, const cni::Environment& env);

}  // namespace wincni::installer
