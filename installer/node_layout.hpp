#pragma once
// Where a runtime looks for CNI binaries and configs on a Windows node. Two
// layouts are in use: containerd's (C:\opt\cni\bin, C:\etc\cni\net.d, set
// by bin_dir and conf_dir in its config.toml) and the dockershim-era
// kubelet's (c:\k\cni, c:\k\cni\config, its --cni-bin-dir and
// --cni-conf-dir). The manifests in deploy/ mount these folders, so the
// table is printed (wincni-install --layouts) for their test to compare.

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace wincni::installer {

enum class Layout { Containerd, Dockershim };

struct NodeFolders {
  std::string bin;
  std::string conf;
};

// nullopt for anything but "containerd" and "dockershim".
std::optional<Layout> parse_layout(std::string_view name);

// The folders as a Windows node has them.
NodeFolders windows_folders(Layout layout);

// The same folders on the platform this runs on: on Windows as above; on
// POSIX (where the installer runs only in tests) the path from the root
// without the drive, as flannel's defaults are written.
NodeFolders default_folders(Layout layout);

// flanneld's net-conf.json folder (its --net-config-path default), in the
// same two forms.
std::string windows_flanneld_conf_dir();
std::string default_flanneld_conf_dir();

// {"containerd": {"bin": ..., "conf": ...}, "dockershim": {...},
//  "flanneld": {"conf": ...}, "flannel": {"subnetFile": ...}} with the
// Windows paths.
nlohmann::json windows_layout_table();

}  // namespace wincni::installer
