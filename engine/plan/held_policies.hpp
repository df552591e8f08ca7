#pragma once
// Whether an endpoint's policies are the ones a plan asks for. HNS lists
// policies of its own beside the client's: a route for a LocalRoutedVip port
// mapping ("a new policy for the route which is created by the OS",
// Azure/azure-container-networking issue 1922), L2Driver on remote
// endpoints (microsoft/SDN issue 227) and, perhaps, EncapOverhead on Overlay
// endpoints (a captured v1 endpoint shows 50 its client never set:
// flannel-io/flannel backend/vxlan vxlan_network_windows_test.go). Comparing
// the whole set would make every repeated ADD of such a pod replace its
// endpoint and address.

#include <vector>

#include "wincni/hns/schema/policy.hpp"

namespace wincni::engine {

// A policy HNS may have added to an endpoint planned with `planned`: L2Driver,
// EncapOverhead where the plan has none, and a route without encapsulation
// where the plan has a local-routed port mapping. Their exact settings are not public, so no more is asked.
bool hns_may_add(const hns::Policy& policy, const std::vector<hns::Policy>& planned);

// Every planned policy is held (as often as planned), and every other held
// one is one HNS may have added. A stale plain route of an older config
// beside a local-routed mapping therefore survives a reuse; every other
// stale policy causes a replacement.
bool holds_planned_policies(std::vector<hns::Policy> held, const std::vector<hns::Policy>& planned);

}  // namespace wincni::engine
