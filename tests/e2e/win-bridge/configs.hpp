#pragma once
// Configs the end-to-end tests run win-bridge with: a flannel-style bridge
// config on host-local, and the fixture configs with their host-local data
// kept in the node's scratch directory.

#include <string>

#include <nlohmann/json.hpp>

#include "emulated_node.hpp"
#include "fixture_configs.hpp"
#include "flannel_delegate.hpp"

namespace wincni::test {

// What flannel hands win-bridge on a host-gw node (flannel-io/cni-plugin,
// flannel_windows.go), with apiVersion 2 for containerd.
inline nlohmann::json bridge_config(const EmulatedNode& node, const std::string& version = "1.0.0") {
  return nlohmann::json{
      {"cniVersion", version},
      {"name", "cbr0"},
      {"type", "win-bridge"},
      {"apiVersion", 2},
      {"ipMasq", true},
      {"ipMasqNetwork", "10.244.0.0/16"},
      {"dns", {{"nameservers", {"10.96.0.10"}}, {"search", {"svc.cluster.local"}}}},
      {"ipam", {{"type", "host-local"}, {"subnet", "10.244.1.0/24"}, {"dataDir", node.ipam_dir()}}},
      {"policies",
       {{{"name", "EndpointPolicy"},
         {"value", {{"Type", "OutBoundNAT"}, {"Settings", {{"Exceptions", {"10.96.0.0/12"}}}}}}},
        {{"name", "EndpointPolicy"},
         {"value", {{"Type", "SDNRoute"}, {"Settings", {{"DestinationPrefix", "10.96.0.0/12"}, {"NeedEncap", true}}}}}}}},
  };
}

// A fixture config with its host-local data (if any) in the node's scratch dir.
inline nlohmann::json fixture(const EmulatedNode& node, std::string_view file) {
  return node.with_scratch_ipam(with_plain_spaces(fixture_config(file)));
}

// flannel's delegate built from a flannel fixture for the node's subnet.
inline nlohmann::json flannel_fixture(const EmulatedNode& node, std::string_view file) {
  return flannel_delegate(with_plain_spaces(fixture_config(file)), "10.244.1.0/24", "10.244.0.0/16", node.ipam_dir());
}

}  // namespace wincni::test
