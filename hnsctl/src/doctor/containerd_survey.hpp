#pragma once
// containerd's config.toml against the node doctor surveys: containerd must
// read configs from the folder whose configs are wincni's, and find every
// plugin they name in one of its bin folders; otherwise the next pod's ADD
// runs another plugin, or fails with "failed to find plugin". Reported,
// never repaired: wincni-install --patch-containerd-config changes the
// file, and containerd must be restarted to read it.

#include <set>
#include <string>
#include <vector>

#include "doctor/leftover.hpp"
#include "wincni/cni/containerd_config.hpp"

namespace wincni::hnsctl::doctor {

// --containerd-config's default: containerd's own file on Windows; "none"
// elsewhere, where nothing is read unless named.
std::string containerd_config_option_default();

// Nothing when `config_file` is "". A file that is not there is a note
// when it was `named`, and nothing when it is only the default: containerd
// may run with another (its --config), or not at all.
std::vector<Leftover> survey_containerd(const std::string& config_file, bool named,
                                        const cni::ContainerdFolders& builtin, const std::string& conf_dir,
                                        const std::set<std::string>& plugins);

}  // namespace wincni::hnsctl::doctor
