#pragma once
// The node's own endpoint on a network (HostEndpointPlan, views.hpp). On
// L2Bridge the pods leave the node through a vNIC the node has on the
// network, an HNS endpoint attached to the host that holds the pods'
// gateway: flanneld's "cbr0_ep" at .2 (its host-gw backend), the gateway
// endpoint Microsoft's sdnbridge tests attach to the host. HNS makes no such
// vNIC for an L2Bridge network by itself, so a network the plugin creates
// gets one (network_locator.hpp) — without it pods reach nothing beyond the
// node — and its addresses are never a pod's.

#include <optional>
#include <string>
#include <vector>

#include "wincni/cni/ip.hpp"
#include "wincni/cni/log.hpp"
#include "hns/hns_access.hpp"

namespace wincni::engine {

// Makes the host's endpoint ready: `existing` when there is one (an earlier
// ADD created it and died before attaching it), else a new one as `plan`
// says, under host_endpoint_id(); then attached to the host unless it is.
// An endpoint this call created is removed again when a later step fails.
EndpointView ensure_host_endpoint(HnsAccess& access, const NetworkView& network, const HostEndpointPlan& plan,
                                  std::optional<EndpointView> existing, const cni::Logger& log);

}  // namespace wincni::engine
