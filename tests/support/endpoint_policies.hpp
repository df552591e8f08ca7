#pragma once
// An HNS endpoint's policies of one type, as `hnsctl endpoint list --json`
// shows them (HCN or v1 shape: both have "Type").

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace wincni::test {

inline std::vector<nlohmann::json> policies_of(const nlohmann::json& endpoint, const std::string& type) {
  std::vector<nlohmann::json> found;
  for (const nlohmann::json& policy : endpoint.value("Policies", nlohmann::json::array())) {
    if (policy.value("Type", "") == type) found.push_back(policy);
  }
  return found;
}

}  // namespace wincni::test
