#pragma once
// What holds an address IPAM has just given a pod, when HNS refused the
// pod's endpoint for it: an endpoint of someone else's stops the ADD, named
// (foreign_endpoint.hpp); one of ours is removed only when HNS shows its
// sandbox gone — its namespace (on v1, every container it is attached to) no
// longer exists, or it stayed attached to nothing for a grace period. Any
// other one serves a live pod: IPAM's store lost that pod's address (a wiped
// or moved dataDir), and the address goes back to it (docs/engine.md,
// "Addresses IPAM gives twice").

#include <chrono>
#include <vector>

#include "commands/invocation.hpp"
#include "hns/hns_access.hpp"
#include "wincni/cni/ip.hpp"

namespace wincni::engine {

struct AddressHolder {
  EndpointView endpoint;
  cni::IpAddress address;  // the first of the pod's addresses it holds
};

struct HolderVerdict {
  std::vector<AddressHolder> dead;  // ours, serving nothing: to be removed
  std::vector<AddressHolder> live;  // ours, serving a sandbox that exists
};

// The endpoints on `network` other than `spec`'s that hold one of its
// addresses.
std::vector<AddressHolder> address_holders(HnsAccess& access, const EndpointSpec& spec, const NetworkView& network);

// How long an endpoint of ours may stay attached to nothing before it counts
// as dead: an ADD attaches what it created within milliseconds.
// WINCNI_ORPHAN_GRACE_MS sets it (tests).
std::chrono::milliseconds unattached_grace(const cni::Environment& env);

// Sorts the holders. cni::Error kEndpointInTheWay for one the engine did not
// create. Waits up to the grace period while one is attached to nothing.
HolderVerdict judge_holders(Invocation& invocation, std::vector<AddressHolder> holders);

}  // namespace wincni::engine
