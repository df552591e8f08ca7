#pragma once
// Configs the end-to-end tests run win-bridge with: a flannel-style bridge
// config on host-local, and the fixture configs with their host-local data
// kept in the node's scratch directory.

#include <string>

#include <nlohmann/json.hpp>

#include "plugin_configs.hpp"

namespace wincni::test {

// What flannel hands win-bridge on a host-gw node.
inline nlohmann::json bridge_config(const EmulatedNode& node, const std::string& version = "1.0.0") {
  return flannel_style_config(node, "win-bridge", "cbr0", "10.244.1.0/24", version);
}

// flannel's delegate built from a flannel fixture for the node's subnet.
inline nlohmann::json flannel_fixture(const EmulatedNode& node, std::string_view file) {
  return flannel_fixture(node, file, "10.244.1.0/24");
}

}  // namespace wincni::test
