#pragma once
// Where the node's pods keep their addresses: the ipam.dataDir of the wincni
// config that names a network, read from the runtime's config folder, so
// that a tool reserving an address there (source-vip) uses the pods' own
// store without being told (kubernetes/kubernetes#100962: a reservation in
// another store is no reservation).

#include <optional>
#include <string>

namespace wincni::hnsctl {

// The runtime's CNI config folder, as the plugins' own defaults write paths.
inline constexpr const char* kDefaultConfDir = "/etc/cni/net.d";
// libcni's result cache and host-local's store, as the plugins resolve them:
// on Windows, on the drive hnsctl runs from.
inline constexpr const char* kDefaultCacheDir = "/var/lib/cni/results";
inline constexpr const char* kDefaultIpamDir = "/var/lib/cni/networks";

struct PodsDataDir {
  std::string data_dir;  // "" when the config gives none: host-local's default
  std::string config;    // the file that said so
};

// The first config in `conf_dir` (in the runtime's order) whose "name" is
// `network` and that gives an "ipam" object; nullopt when none does.
std::optional<PodsDataDir> pods_data_dir(const std::string& conf_dir, const std::string& network);

}  // namespace wincni::hnsctl
