#pragma once
// Configs the end-to-end tests run win-overlay with: what flannel hands it on
// a vxlan node, the distributions' own shapes, and the fixture configs with
// their host-local data kept in the node's scratch directory.

#include <string>

#include <nlohmann/json.hpp>

#include "emulated_node.hpp"
#include "fixture_configs.hpp"
#include "flannel_delegate.hpp"

namespace wincni::test {

// The node's pod subnet on flanneld's vxlan node (EmulatedNode::vxlan).
inline constexpr const char* kOverlaySubnet = "10.244.3.0/24";

// flannel's delegate on a vxlan node (ipMasq, the cluster network as
// ipMasqNetwork, host-local), with apiVersion 2 for containerd.
inline nlohmann::json overlay_config(const EmulatedNode& node, const std::string& version = "1.0.0") {
  return nlohmann::json{
      {"cniVersion", version},
      {"name", "flannel.4096"},
      {"type", "win-overlay"},
      {"apiVersion", 2},
      {"ipMasq", true},
      {"ipMasqNetwork", "10.244.0.0/16"},
      {"dns", {{"nameservers", {"10.96.0.10"}}, {"search", {"svc.cluster.local"}}}},
      {"ipam", {{"type", "host-local"}, {"subnet", kOverlaySubnet}, {"dataDir", node.ipam_dir()}}},
      {"policies",
       {{{"name", "EndpointPolicy"},
         {"value", {{"Type", "OutBoundNAT"}, {"Settings", {{"Exceptions", {"10.96.0.0/12"}}}}}}},
        {{"name", "EndpointPolicy"},
         {"value", {{"Type", "SDNRoute"}, {"Settings", {{"DestinationPrefix", "10.96.0.0/12"}, {"NeedEncap", true}}}}}}}},
  };
}

// A fixture config with its host-local data (if any) in the node's scratch dir.
inline nlohmann::json overlay_fixture(const EmulatedNode& node, std::string_view file) {
  return node.with_scratch_ipam(with_plain_spaces(fixture_config(file)));
}

// flannel's delegate built from a flannel-style fixture for the node's subnet.
inline nlohmann::json overlay_delegate(const EmulatedNode& node, std::string_view file) {
  return flannel_delegate(with_plain_spaces(fixture_config(file)), kOverlaySubnet, "10.244.0.0/16", node.ipam_dir());
}

}  // namespace wincni::test
