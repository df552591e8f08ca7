#pragma once
// Addresses held in a network's store for something that is not a pod and
// never sends DEL: kube-proxy's source VIP in overlay mode, which
// distributions reserve by running host-local by hand with a dummy
// container ID (kubernetes/kubernetes#100962, rancher/rke2#5661). Held in
// the pods' own store, so no pod is ever given it, and never collected by
// GC.

#include <optional>
#include <string>
#include <string_view>

#include "wincni/cni/ip.hpp"
#include "wincni/hostlocal/owner.hpp"

namespace wincni::hostlocal {

// The container IDs of standing reservations: ours (kube-proxy, with the
// interface name source-vip) and what the known scripts use (sig-windows-tools
// and k3s: "dummy"). GC keeps every address whose owner is one of them.
bool is_standing_owner(std::string_view container_id);

// kube-proxy's source VIP: container ID "kube-proxy", interface "source-vip".
OwnerKey source_vip_owner();

struct StandingAddress {
  cni::IpAddress address;
  std::optional<cni::IpAddress> moved_from;  // the address released because it left the subnet
  bool fresh = false;                        // reserved by this call
};

// The address `owner` holds in `subnet` in the store of `network` under
// `data_dir` ("" for host-local's default), reserving the next free one when
// it holds none. Addresses it holds outside `subnet` (the node's subnet
// changed) are released. Under the store's lock, as every pod's ADD.
StandingAddress hold_standing_address(std::string_view data_dir, std::string_view network, const cni::IpPrefix& subnet,
                                      const OwnerKey& owner);

// Releases `owner`'s reservation of `address`, if it still holds it.
void release_standing_address(std::string_view data_dir, std::string_view network, const OwnerKey& owner,
                              const cni::IpAddress& address);

}  // namespace wincni::hostlocal
