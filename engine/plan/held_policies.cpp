#include "plan/held_policies.hpp"

#include <algorithm>

#include "wincni/cni/json_keys.hpp"

namespace wincni::engine {

bool hns_may_add(const hns::Policy& policy) {
  return policy.as<hns::SdnRoutePolicy>() != nullptr || cni::equals_ignore_case(policy.type(), "L2Driver");
}

bool holds_planned_policies(std::vector<hns::Policy> held, const std::vector<hns::Policy>& planned) {
  for (const hns::Policy& policy : planned) {
    auto it = std::find(held.begin(), held.end(), policy);
    if (it == held.end()) return false;
    held.erase(it);
  }
  return std::all_of(held.begin(), held.end(), hns_may_add);
}

}  // namespace wincni::engine
