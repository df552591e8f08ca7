#include "wincni/flannel/windows_policies.hpp"

#include <algorithm>
#include <set>
#include <string>

#include "wincni/cni/json_keys.hpp"
#include "wincni/engine/policy_json.hpp"

namespace wincni::flannel {
namespace {

using cni::IpAddress;
using cni::IpFamily;
using cni::IpPrefix;
using nlohmann::json;

IpPrefix host_prefix(const IpAddress& address) {
  return *IpPrefix::parse(address.str() + (address.is_v4() ? "/32" : "/128"));
}

hns::Policy encap_route(const IpPrefix& destination) {
  hns::SdnRoutePolicy route;
  route.destination_prefix = destination.str();
  route.need_encap = true;
  return hns::Policy{route};
}

// Exceptions and destinations compare by what they mean ("10.0.0.0/08" is
// "10.0.0.0/8"; an address is its host prefix).
std::string canonical(const std::string& text) {
  if (auto prefix = IpPrefix::parse(text)) return prefix->network().str();
  if (auto address = IpAddress::parse(text)) return host_prefix(*address).str();
  return text;
}

// What the delegate's own endpoint policies cover already.
struct Covered {
  std::set<std::string> exceptions;
  std::set<std::string> encap_routes;
  bool provider_address = false;
};

Covered covered_by(const json& delegate) {
  std::vector<std::string> warnings;  // the delegate logs them when it reads the same policies
  Covered covered;
  for (const engine::ConfigPolicy& entry : engine::read_config_policies(delegate, warnings)) {
    if (entry.target != engine::PolicyTarget::Endpoint) continue;
    if (const auto* nat = entry.policy.as<hns::OutboundNatPolicy>(); nat && nat->destinations.empty()) {
      for (const std::string& exception : nat->exceptions) covered.exceptions.insert(canonical(exception));
    } else if (const auto* route = entry.policy.as<hns::SdnRoutePolicy>(); route && route->need_encap) {
      covered.encap_routes.insert(canonical(route->destination_prefix));
    } else if (entry.policy.as<hns::ProviderAddressPolicy>() != nullptr) {
      covered.provider_address = true;
    }
  }
  return covered;
}

// The generated policies less what `covered` has; an OutBoundNAT left with
// no exceptions goes.
std::vector<hns::Policy> uncovered(std::vector<hns::Policy> generated, const Covered& covered) {
  std::vector<hns::Policy> missing;
  for (hns::Policy& policy : generated) {
    if (auto* nat = policy.as<hns::OutboundNatPolicy>()) {
      std::erase_if(nat->exceptions, [&](const std::string& e) { return covered.exceptions.contains(canonical(e)); });
      if (nat->exceptions.empty()) continue;
    } else if (const auto* route = policy.as<hns::SdnRoutePolicy>()) {
      if (covered.encap_routes.contains(canonical(route->destination_prefix))) continue;
    } else if (policy.as<hns::ProviderAddressPolicy>() != nullptr && covered.provider_address) {
      continue;
    }
    missing.push_back(std::move(policy));
  }
  return missing;
}

// The key the delegate lists its policies under, and the spelling of an
// entry's fields there: containernetworking's "policies" with "name" and
// "value", Microsoft's "AdditionalArgs" with "Name" and "Value".
struct PolicyList {
  std::string key;
  const char* name_field;
  const char* value_field;
};

PolicyList policy_list_of(const json& delegate) {
  for (const auto& [key, value] : delegate.items()) {
    if (cni::equals_ignore_case(key, "policies")) return {key, "name", "value"};
  }
  for (const auto& [key, value] : delegate.items()) {
    if (cni::equals_ignore_case(key, "AdditionalArgs")) return {key, "Name", "Value"};
  }
  return {"policies", "name", "value"};
}

}  // namespace

std::vector<hns::Policy> generated_policies(const PolicySources& sources) {
  std::vector<hns::Policy> policies;
  for (const IpFamily family : {IpFamily::V4, IpFamily::V6}) {
    hns::OutboundNatPolicy nat;
    for (const IpPrefix& network : sources.cluster_networks) {
      if (network.family() == family) nat.exceptions.push_back(network.str());
    }
    for (const IpPrefix& network : sources.service_networks) {
      if (network.family() == family) nat.exceptions.push_back(network.str());
    }
    if (sources.backend == Backend::HostGw && sources.node_ip && sources.node_ip->family() == family) {
      nat.exceptions.push_back(host_prefix(*sources.node_ip).str());
    }
    if (!nat.exceptions.empty()) policies.push_back(hns::Policy{nat});
  }
  for (const IpPrefix& network : sources.service_networks) policies.push_back(encap_route(network));
  if (sources.backend == Backend::HostGw && sources.node_ip)
    policies.push_back(encap_route(host_prefix(*sources.node_ip)));
  if (sources.backend == Backend::Vxlan && sources.node_ip) {
    policies.push_back(hns::Policy{hns::ProviderAddressPolicy{sources.node_ip->str()}});
  }
  return policies;
}

void merge_generated_policies(json& delegate, const std::vector<hns::Policy>& generated, engine::HnsApi api) {
  const std::vector<hns::Policy> missing = uncovered(generated, covered_by(delegate));
  if (missing.empty()) return;
  const PolicyList list = policy_list_of(delegate);
  json& entries = delegate[list.key];
  if (!entries.is_array()) entries = json::array();
  for (json& rendered : engine::render_policies(missing, api)) {
    entries.push_back({{list.name_field, "EndpointPolicy"}, {list.value_field, std::move(rendered)}});
  }
}

}  // namespace wincni::flannel
