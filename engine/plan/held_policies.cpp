#include "plan/held_policies.hpp"

#include <algorithm>

#include "wincni/cni/json_keys.hpp"

namespace wincni::engine {

namespace {

bool has_local_routed_mapping(const std::vector<hns::Policy>& policies) {
  return std::any_of(policies.begin(), policies.end(), [](const hns::Policy& policy) {
    const auto* mapping = policy.as<hns::PortMappingPolicy>();
    return mapping && (mapping->flags & hns::PortMappingPolicy::kLocalRoutedVip) != 0;
  });
}

}  // namespace

bool hns_may_add(const hns::Policy& policy, const std::vector<hns::Policy>& planned) {
  if (cni::equals_ignore_case(policy.type(), "L2Driver")) return true;
  // An Overlay endpoint's overhead, as the capture shows it (VXLAN's 50),
  // when the plan sets none of its own.
  if (const auto* overhead = policy.as<hns::EncapOverheadPolicy>()) {
    return overhead->overhead == 50 && std::none_of(planned.begin(), planned.end(), [](const hns::Policy& wanted) {
             return wanted.as<hns::EncapOverheadPolicy>();
           });
  }
  const auto* route = policy.as<hns::SdnRoutePolicy>();
  return route && !route->need_encap && has_local_routed_mapping(planned);
}

bool holds_planned_policies(std::vector<hns::Policy> held, const std::vector<hns::Policy>& planned) {
  for (const hns::Policy& policy : planned) {
    auto it = std::find(held.begin(), held.end(), policy);
    if (it == held.end()) return false;
    held.erase(it);
  }
  return std::all_of(held.begin(), held.end(), [&](const hns::Policy& extra) { return hns_may_add(extra, planned); });
}

}  // namespace wincni::engine
