#include "hns_owned_policies.hpp"

#include <algorithm>
#include <cstdint>

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

// The overhead of VXLAN's headers, as the capture shows it.
constexpr std::uint16_t kVxlanOverhead = 50;

void add_hns_owned_policies(HostComputeEndpoint& endpoint, const HostComputeNetwork& network, bool encap_overhead) {
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
  const bool has_overhead = std::any_of(endpoint.policies.begin(), endpoint.policies.end(),
                                        [](const Policy& policy) { return policy.as<EncapOverheadPolicy>(); });
  if (encap_overhead && !has_overhead && network.type == NetworkType::Overlay) {
    endpoint.policies.push_back(Policy{EncapOverheadPolicy{kVxlanOverhead}});
  }
}

}  // namespace wincni::hns::emulator
