#pragma once
// What flannel's Windows code hands to its delegate (flannel-io/cni-plugin,
// flannel_windows.go): the fixture's "delegate" object with name, ipMasq, ipMasqNetwork,
// cniVersion and a host-local ipam for the node's subnet filled in.

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace wincni::test {

inline nlohmann::json flannel_delegate(std::string_view flannel_config, std::string_view node_subnet,
                                       std::string_view cluster_network, std::string_view data_dir = {}) {
  const nlohmann::json flannel = nlohmann::json::parse(flannel_config);
  nlohmann::json delegate = flannel.at("delegate");
  if (!delegate.contains("type")) delegate["type"] = "win-bridge";
  delegate["name"] = flannel.at("name");
  delegate["ipMasq"] = true;
  delegate["ipMasqNetwork"] = std::string(cluster_network);
  delegate["cniVersion"] = flannel.value("cniVersion", "0.2.0");
  delegate["ipam"] = {{"type", "host-local"}, {"subnet", std::string(node_subnet)}};
  if (!data_dir.empty()) delegate["ipam"]["dataDir"] = std::string(data_dir);
  return delegate;
}

}  // namespace wincni::test
