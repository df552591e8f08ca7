#pragma once
// Whether an endpoint's policies are the ones a plan asks for. HNS lists
// policies of its own beside the client's: a route for a LocalRoutedVip port
// mapping ("a new policy for the route which is created by the OS",
// Azure/azure-container-networking issue 1922) and L2Driver on remote
// endpoints (microsoft/SDN issue 227). Comparing the whole set would make
// every repeated ADD of a pod with a local-routed port mapping replace its
// endpoint and address.

#include <vector>

#include "wincni/hns/schema/policy.hpp"

namespace wincni::engine {

// A kind of policy HNS may add on its own. Their settings are not public, so
// the kind decides, not the settings.
bool hns_may_add(const hns::Policy& policy);

// Every planned policy is held (as often as planned), and every other held
// one is of a kind HNS adds. A stale route of an older config therefore
// survives a reuse; every other stale policy causes a replacement.
bool holds_planned_policies(std::vector<hns::Policy> held, const std::vector<hns::Policy>& planned);

}  // namespace wincni::engine
