#pragma once
// Network configs, environments and expected results for the conformance cases.

#include <string>

#include <nlohmann/json.hpp>

#include "cni_test_helpers.hpp"
#include "golden_results.hpp"

namespace wincni::test {

// {"cniVersion": version, "name": "conformance-net", "type": ...} plus `extra`
// (which may override any of them; a null version leaves the key out).
inline std::string network_config(const nlohmann::json& version,
                                  const nlohmann::json& extra = nlohmann::json::object()) {
  nlohmann::json config = {{"name", "conformance-net"}, {"type", "wincni-conformance-plugin"}};
  if (!version.is_null()) config["cniVersion"] = version;
  config.update(extra);
  return config.dump();
}

// complete_cni_env with the plugin's claimed versions restricted.
inline cni::Environment env_claiming(const std::string& command, const std::string& versions) {
  cni::Environment env = complete_cni_env(command);
  env.set("WINCNI_CONFORMANCE_VERSIONS", versions);
  return env;
}

}  // namespace wincni::test
