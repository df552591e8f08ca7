#pragma once
// The endpoint's policy list: the config's own policies and the ones the
// plugin derives from ipMasq, port mappings, loopback DSR and (overlay) the
// provider address, merged and put in one documented order
// (docs/engine.md, "Endpoint policies"):
//
//   1. the config's endpoint policies, in config order (policies, then
//      AdditionalArgs), with OutBoundNAT exception lists merged (below);
//   2. the ipMasq exceptions, merged into that OutBoundNAT;
//   3. per port mapping: the IPv4 PortMapping, the IPv6 one, the inbound ACL
//      (allowAclPortMapping);
//   4. loopback DSR: OutBoundNAT {Destinations: [pod IPv4]};
//   5. the provider address (win-overlay).
//
// OutBoundNAT merging: policies that only list exceptions (no Destinations)
// and agree on VirtualIP, Flags and MaxPortPoolUsage become one policy at
// the first one's place, exceptions deduplicated in first-seen order. IPv4
// and IPv6 exception lists stay in separate policies, as the dual-stack
// configs that run on Windows write them. A policy equal to an earlier one
// is dropped.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "wincni/cni/ip.hpp"
#include "wincni/engine/config.hpp"
#include "wincni/engine/policy_json.hpp"  // render_policies
#include "wincni/hns/schema/policy.hpp"

namespace wincni::engine {

struct AssembledPolicy {
  hns::Policy policy;
  std::string origin;  // where it came from, for messages
  friend bool operator==(const AssembledPolicy&, const AssembledPolicy&) = default;
};

struct PolicyInputs {
  std::vector<ConfigPolicy> config_policies;  // only the endpoint ones are used
  std::vector<cni::IpPrefix> nat_exceptions;  // ipMasqNetwork, ipMasq's subnet
  std::vector<PortMapping> port_mappings;
  bool local_routed_port_mapping = false;
  bool allow_acl_port_mapping = false;
  std::vector<cni::IpAddress> pod_addresses;  // the endpoint's, every family
  bool loopback_dsr = false;
  std::optional<cni::IpAddress> provider_address;
};

std::vector<AssembledPolicy> assemble_endpoint_policies(const PolicyInputs& inputs);

// The policies HNS gets through `api`. HNS v1 has no place for some v2
// settings (a PortMapping's VIP and Flags, OutBoundNAT Flags): such a policy
// is cni::Error 2 (unsupported field) naming where it came from, never a
// silent loss.
std::vector<hns::Policy> policies_for_api(const std::vector<AssembledPolicy>& policies, HnsApi api);

}  // namespace wincni::engine
