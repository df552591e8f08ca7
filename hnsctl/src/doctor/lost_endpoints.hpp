#pragma once
// The opposite leak: a pod the runtime still has on an HNS network whose
// endpoint HNS no longer has. After an HNS restart or crash (the most common
// Windows outage) a pod keeps running without a network, and nothing but the
// runtime's cache remembers it. doctor reports it; nothing repairs it but
// recreating the pod, which the runtime does not do by itself.

#include <chrono>
#include <set>
#include <string>
#include <vector>

#include "doctor/leftover.hpp"
#include "hns_listing.hpp"
#include "doctor/runtime_cache.hpp"

namespace wincni::hnsctl::doctor {

// Only pods on networks a wincni config names (`our_networks`) and HNS has:
// another plugin's pods, whose endpoints may be named otherwise, are not
// doctor's to judge. Cache entries younger than `grace` are skipped: their
// ADD may have just made the endpoint, or their DEL be removing it.
std::vector<Leftover> lost_endpoints(const HnsListing& hns, const RuntimeCache& cache,
                                     const std::set<std::string>& our_networks, std::chrono::seconds grace);

}  // namespace wincni::hnsctl::doctor
