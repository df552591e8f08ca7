#include <algorithm>
#include <set>

#include "failure.hpp"
#include "host.hpp"
#include "store_layout.hpp"
#include "wincni/cni/ip.hpp"

namespace wincni::hns::emulator {
namespace {

// A prefix whose address is not its network's ("10.244.0.1/16").
bool has_host_bits(const std::string& text) {
  const auto prefix = cni::IpPrefix::parse(text);
  return prefix && !(*prefix == prefix->network());
}

// The prefixes of `policy` that a host refusing host bits looks at.
std::vector<std::string> checked_prefixes(const Policy& policy) {
  if (const auto* nat = policy.as<OutboundNatPolicy>()) return nat->exceptions;
  if (const auto* route = policy.as<SdnRoutePolicy>()) return {route->destination_prefix};
  return {};
}

std::string_view scope_name(unsigned scope) {
  switch (scope) {
    case kEndpointScope:
      return "an endpoint";
    case kNetworkScope:
      return "a network";
    default:
      return "a subnet";
  }
}

}  // namespace

void Host::check_policies(const std::vector<Policy>& policies, unsigned scope) const {
  for (const auto& policy : policies) {
    if (!policy.known()) throw HcnFailure(hr::kInvalidPolicyType, "unknown policy type \"" + policy.type() + "\"");
    if (!(policy.scopes() & scope)) {
      throw HcnFailure(hr::kInvalidPolicyType,
                       "a " + policy.type() + " policy cannot be set on " + std::string(scope_name(scope)));
    }
    if (auto feature = policy.required_feature(); feature && !supports(version_, *feature)) {
      throw HcnFailure(hr::kInvalidPolicyType, policy.type() + " policies need the " +
                                                   std::string(feature_name(*feature)) + " feature, which HNS " +
                                                   version_.str() + " lacks");
    }
    if (std::string problem = policy.problem(); !problem.empty()) {
      throw HcnFailure(hr::kInvalidPolicy, policy.type() + " policy: " + problem);
    }
    if (rules_.refuse_prefix_host_bits) {
      for (const std::string& prefix : checked_prefixes(policy)) {
        if (has_host_bits(prefix)) {
          throw HcnFailure(hr::kInvalidPolicy, policy.type() + " policy: " + prefix + " has host bits set");
        }
      }
    }
  }
}

void Host::check_port_mappings(const Guid& network_id, const Guid& endpoint_id,
                               const std::vector<Policy>& policies) const {
  // Dual-stack pods carry an IPv4 and an IPv6 mapping of one port (flag
  // IPv6 on the second): their keys differ.
  std::set<std::string> taken = state_.port_mappings_in_use(network_id, endpoint_id);
  for (const auto& policy : policies) {
    const auto* mapping = policy.as<PortMappingPolicy>();
    if (!mapping) continue;
    if (mapping->internal_port == 0) throw HcnFailure(hr::kInvalidInternalPort, "a port mapping needs an InternalPort");
    if (mapping->external_port == 0) continue;  // HNS picks one
    if (!taken.insert(layout::port_mapping_key(*mapping)).second) {
      throw HcnFailure(hr::kPortAlreadyExists, "external port " + std::to_string(mapping->external_port) +
                                                   " is already mapped on this network");
    }
  }
}

void Host::remove_policies(std::vector<Policy>& current, const std::vector<Policy>& policies) {
  for (const auto& policy : policies) {
    auto found = std::find(current.begin(), current.end(), policy);
    if (found == current.end()) throw HcnFailure(hr::kPolicyNotFound, "no such " + policy.type() + " policy");
    current.erase(found);
  }
}

}  // namespace wincni::hns::emulator
