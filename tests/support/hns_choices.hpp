#pragma once
// What HNS chose for an endpoint: the MAC, and the address when the config
// leaves it to HNS. Windows does not hand out the lowest free one, and how
// it picks is not public (docs/reference/emulator-fidelity.md); tests read
// the choice back from the endpoint instead of naming it, and pass under
// WINCNI_EMULATOR_HNS_PICKS=random.

#include <algorithm>
#include <cctype>
#include <string>

#include <nlohmann/json.hpp>

namespace wincni::test {

// The endpoint's MAC as a CNI result writes it: "00-15-5D-52-C0-01" ->
// "00:15:5d:52:c0:01".
inline std::string result_mac(const nlohmann::json& endpoint) {
  std::string mac = endpoint.value("MacAddress", "");
  std::replace(mac.begin(), mac.end(), '-', ':');
  std::transform(mac.begin(), mac.end(), mac.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return mac;
}

// The endpoint's `index`th address (HCN's IpConfigurations).
inline std::string endpoint_address(const nlohmann::json& endpoint, std::size_t index = 0) {
  return endpoint.at("IpConfigurations").at(index).at("IpAddress").get<std::string>();
}

}  // namespace wincni::test
