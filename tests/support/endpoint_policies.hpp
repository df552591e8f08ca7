#pragma once
// An HNS endpoint's policies as `hnsctl endpoint list --json` shows them
// (HCN or v1 shape: both have "Type"), without the ones HNS adds on its own
// (hns-emulator/src/hns_owned_policies.hpp): what the plugin sent.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace wincni::test {

// The emulator's stand-ins for HNS's own policies: a route to the endpoint's
// own address for a local-routed port mapping, L2Driver on remote endpoints.
inline bool is_hns_owned(const nlohmann::json& policy, const nlohmann::json& endpoint) {
  const std::string type = policy.value("Type", "");
  if (type == "L2Driver") return true;
  if (type != "SDNRoute" && type != "ROUTE") return false;
  const nlohmann::json& settings = policy.contains("Settings") ? policy["Settings"] : policy;
  const std::string destination = settings.value("DestinationPrefix", "");
  for (const nlohmann::json& config : endpoint.value("IpConfigurations", nlohmann::json::array())) {
    const std::string address = config.value("IpAddress", "");
    if (destination == address + "/32" || destination == address + "/128") return true;
  }
  const std::string v1_address = endpoint.value("IPAddress", "");
  return !v1_address.empty() && destination == v1_address + "/32";
}

inline nlohmann::json sent_policies(const nlohmann::json& endpoint) {
  nlohmann::json sent = nlohmann::json::array();
  for (const nlohmann::json& policy : endpoint.value("Policies", nlohmann::json::array())) {
    if (!is_hns_owned(policy, endpoint)) sent.push_back(policy);
  }
  return sent;
}

inline std::vector<nlohmann::json> policies_of(const nlohmann::json& endpoint, const std::string& type) {
  std::vector<nlohmann::json> found;
  for (const nlohmann::json& policy : sent_policies(endpoint)) {
    if (policy.value("Type", "") == type) found.push_back(policy);
  }
  return found;
}

}  // namespace wincni::test
