#pragma once
// containerd's config.toml, checked before anything on the node changes:
// when containerd looks for CNI plugins or configs elsewhere than where the
// installer writes, the node would keep its old plugin (or none) and the
// run would look like a success. The installer then refuses; with
// --patch-containerd-config it sets the cni table (as sig-windows-tools'
// Install-Containerd.ps1 does, but keeping every other byte), after keeping
// the file as it was in <config.toml>.wincni-backup, which --uninstall puts
// back while the file is still what the patch made it. containerd reads
// its config only when it starts: the report says to restart it.

#include <optional>
#include <string>
#include <vector>

#include "install_options.hpp"
#include "wincni/os/byte_streams.hpp"

namespace wincni::installer {

// The backup's name, beside the file.
inline constexpr const char* kContainerdBackupSuffix = ".wincni-backup";

struct ContainerdConfigPlan {
  std::string path;                     // "" when not checked
  std::optional<std::string> original;  // nullopt when no file is there
  std::vector<std::string> mismatches;  // containerd_folder_mismatches
  std::optional<std::string> patched;   // what is written, with --patch-containerd-config
};

// Reads and checks, changing nothing. Throws when containerd would not find
// what is installed and no patch is asked for, when the file cannot be read
// as containerd's config, or when a patch is asked for a file that is not
// there.
ContainerdConfigPlan plan_containerd_config(const InstallOptions& options);

// Writes the patch, if any (the backup first), and reports one line.
void apply_containerd_config(const ContainerdConfigPlan& plan, os::ByteSink& report);

// --uninstall: the backup is put back when the file is still exactly what
// the patch made of it; otherwise both are left and the report says why.
void restore_containerd_config(const InstallOptions& options, os::ByteSink& report);

}  // namespace wincni::installer
