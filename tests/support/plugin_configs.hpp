#pragma once
// The configs the end-to-end suites run a plugin with: what flannel hands its
// delegate (ipMasq, the cluster network as ipMasqNetwork, host-local in the
// node's scratch folder, flannel-io/cni-plugin's flannel_windows.go) with
// apiVersion 2 for containerd, and the fixture configs with their host-local
// data kept in the node's scratch folder.

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "emulated_node.hpp"
#include "fixture_configs.hpp"
#include "flannel_delegate.hpp"

namespace wincni::test {

// flannel's delegate of `type` for network `name` on the node's `subnet`.
inline nlohmann::json flannel_style_config(const EmulatedNode& node, const std::string& type, const std::string& name,
                                           const std::string& subnet, const std::string& version) {
  return nlohmann::json{
      {"cniVersion", version},
      {"name", name},
      {"type", type},
      {"apiVersion", 2},
      {"ipMasq", true},
      {"ipMasqNetwork", "10.244.0.0/16"},
      {"dns", {{"nameservers", {"10.96.0.10"}}, {"search", {"svc.cluster.local"}}}},
      {"ipam", {{"type", "host-local"}, {"subnet", subnet}, {"dataDir", node.ipam_dir()}}},
      {"policies",
       {{{"name", "EndpointPolicy"},
         {"value", {{"Type", "OutBoundNAT"}, {"Settings", {{"Exceptions", {"10.96.0.0/12"}}}}}}},
        {{"name", "EndpointPolicy"},
         {"value",
          {{"Type", "SDNRoute"}, {"Settings", {{"DestinationPrefix", "10.96.0.0/12"}, {"NeedEncap", true}}}}}}}},
  };
}

// A fixture config with its host-local data (if any) in the node's scratch dir.
inline nlohmann::json fixture(const EmulatedNode& node, std::string_view file) {
  return node.with_scratch_ipam(with_plain_spaces(fixture_config(file)));
}

// flannel's delegate built from a flannel fixture for the node's `subnet`.
inline nlohmann::json flannel_fixture(const EmulatedNode& node, std::string_view file, const std::string& subnet) {
  return flannel_delegate(with_plain_spaces(fixture_config(file)), subnet, "10.244.0.0/16", node.ipam_dir());
}

}  // namespace wincni::test
