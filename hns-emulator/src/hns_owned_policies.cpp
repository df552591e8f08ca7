#include "hns_owned_policies.hpp"

#include <algorithm>

namespace wincni::hns::emulator {
namespace {

void add_once(std::vector<Policy>& policies, Policy policy) {
  if (std::find(policies.begin(), policies.end(), policy) == policies.end()) policies.push_back(std::move(policy));
}

bool has_local_routed_port_mapping(const std::vector<Policy>& policies) {
  return std::any_of(policies.begin(), policies.end(), [](const Policy& policy) {
    const auto* mapping = policy.as<PortMappingPolicy>();
    return mapping && (mapping->flags & PortMappingPolicy::kLocalRoutedVip) != 0;
  });
}

}  // namespace

void add_hns_owned_policies(HostComputeEndpoint& endpoint) {
  if (has_local_routed_port_mapping(endpoint.policies)) {
    for (const IpConfig& config : endpoint.ip_configurations) {
      SdnRoutePolicy route;
      route.destination_prefix = cni::IpPrefix(config.ip_address, config.ip_address.is_v4() ? 32 : 128).str();
      add_once(endpoint.policies, Policy{route});
    }
  }
  if (endpoint.flags & HostComputeEndpoint::kRemoteEndpoint) {
    add_once(endpoint.policies, parse_policy_v2(nlohmann::json{{"Type", "L2Driver"}}));
  }
}

}  // namespace wincni::hns::emulator
