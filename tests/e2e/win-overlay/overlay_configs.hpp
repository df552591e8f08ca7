#pragma once
// Configs the end-to-end tests run win-overlay with: what flannel hands it on
// a vxlan node, the distributions' own shapes, and the fixture configs with
// their host-local data kept in the node's scratch directory.

#include <string>

#include <nlohmann/json.hpp>

#include "plugin_configs.hpp"

namespace wincni::test {

// The node's pod subnet on flanneld's vxlan node (EmulatedNode::vxlan).
inline constexpr const char* kOverlaySubnet = "10.244.3.0/24";

// flannel's delegate on a vxlan node.
inline nlohmann::json overlay_config(const EmulatedNode& node, const std::string& version = "1.0.0") {
  return flannel_style_config(node, "win-overlay", "flannel.4096", kOverlaySubnet, version);
}

// flannel's delegate built from a flannel-style fixture for the node's subnet.
inline nlohmann::json overlay_delegate(const EmulatedNode& node, std::string_view file) {
  return flannel_fixture(node, file, kOverlaySubnet);
}

}  // namespace wincni::test
