#pragma once
// The endpoint ADD asks HNS for: its addresses (from IPAM, or none and HNS
// assigns them), the pod's gateway per family (the flavor's rule), extra
// routes, DNS, MAC and the assembled policies. Also used to decide whether
// an existing endpoint is the one ADD would create.

#include <optional>
#include <string>
#include <vector>

#include "wincni/cni/ip.hpp"
#include "wincni/engine/config.hpp"
#include "wincni/engine/flavor.hpp"
#include "hns/hns_access.hpp"
#include "plan/policy_assembly.hpp"

namespace wincni::engine {

struct PodAddress {
  cni::IpPrefix address;
  std::optional<cni::IpAddress> ipam_gateway;  // what IPAM printed
};

struct PlanRequest {
  const EndpointConfig& config;
  const EndpointFlavor& flavor;
  const NetworkView& network;
  HnsApi api = HnsApi::V2;
  std::string name;
  hns::Guid id;
  // From IPAM; empty when HNS assigns them.
  std::vector<PodAddress> addresses;
};

// cni::Error cni::kUnusableAddress when an address is outside every subnet of
// the network, is an address HNS reserves or the pod's own gateway, or
// shares its family with another; kUnsupportedField (2) for what the API
// cannot carry (extra routes in HNS v1).
EndpointSpec plan_endpoint(const PlanRequest& request);

// What the endpoint's policies are assembled from (policy_assembly.hpp):
// the config's, ipMasq's exceptions, port mappings, loopback DSR (only with
// the pod's addresses known before the endpoint exists, `hns_assigns`
// false) and the flavor's provider address unless the config gives one.
PolicyInputs endpoint_policy_inputs(const EndpointConfig& config, const EndpointFlavor& flavor,
                                    const NetworkView& network, HnsApi api,
                                    const std::vector<cni::IpAddress>& pod_addresses, bool hns_assigns);

// The loopback DSR policy for an endpoint HNS gave addresses to (when HNS
// assigns them, the policy can only be added afterwards). Empty when the
// config does not ask for loopback DSR.
std::vector<hns::Policy> late_policies(const EndpointConfig& config, const std::vector<cni::IpPrefix>& addresses,
                                       HnsApi api);

// ipMasqNetwork, and with ipMasq the network's own subnets (those
// ipMasqNetwork does not already cover): traffic to them is not NATed.
std::vector<cni::IpPrefix> nat_exceptions(const EndpointConfig& config, const NetworkView& network);

// Whether `endpoint` (on the plan's network) already is what `spec` asks for:
// addresses, gateways, extra routes, DNS, MAC (when one is asked for) and
// policies in any order, beside those HNS adds itself (held_policies.hpp).
bool endpoint_matches(const EndpointView& endpoint, const EndpointSpec& spec, HnsApi api);

// Rejects an address HNS assigned that the pod must not have (its gateway,
// the node's endpoint's), with cni::kUnusableAddress.
void require_usable(const cni::IpAddress& address, const EndpointSpec& spec, const NetworkView& network,
                    const EndpointFlavor& flavor, std::string_view assigned_by);

}  // namespace wincni::engine
