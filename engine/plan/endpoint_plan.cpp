#include "plan/endpoint_plan.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "plan/held_policies.hpp"
#include "plan/policy_assembly.hpp"
#include "wincni/hns/mac_address.hpp"

namespace wincni::engine {

namespace {

std::string_view family_name(cni::IpFamily family) { return family == cni::IpFamily::V4 ? "IPv4" : "IPv6"; }

std::string subnet_list(const NetworkView& network) {
  std::string list;
  for (const SubnetView& subnet : network.subnets) list += (list.empty() ? "" : ", ") + subnet.prefix.str();
  return list.empty() ? "none" : list;
}

[[noreturn]] void unusable(std::string_view assigned_by, const cni::IpAddress& address, std::string_view why) {
  throw cni::Error(cni::kUnusableAddress, fmt::format("{} gave the pod {}, {}", assigned_by, address.str(), why));
}

// What HNS will hand out when it assigns: an address of each family the
// network has (IPv4 when it has neither). Stands in for the real ones
// until HNS has chosen them.
std::vector<PodAddress> stand_ins(const NetworkView& network) {
  std::vector<PodAddress> addresses;
  const SubnetView* v4 = network.first_subnet(cni::IpFamily::V4);
  const SubnetView* v6 = network.first_subnet(cni::IpFamily::V6);
  if (v4 != nullptr) addresses.push_back({v4->prefix, std::nullopt});
  if (v6 != nullptr) addresses.push_back({v6->prefix, std::nullopt});
  return addresses;
}

void require_one_per_family(const std::vector<PodAddress>& addresses) {
  for (size_t i = 0; i < addresses.size(); ++i) {
    for (size_t j = i + 1; j < addresses.size(); ++j) {
      if (addresses[i].address.family() == addresses[j].address.family()) {
        throw cni::Error(cni::kUnusableAddress,
                         fmt::format("IPAM gave two {} addresses ({} and {}); an HNS endpoint holds one per family",
                                     family_name(addresses[i].address.family()), addresses[i].address.str(),
                                     addresses[j].address.str()));
      }
    }
  }
}

std::optional<cni::IpAddress> gateway_of_family(const std::vector<cni::IpAddress>& gateways, cni::IpFamily family) {
  for (const cni::IpAddress& gateway : gateways) {
    if (gateway.family() == family) return gateway;
  }
  return std::nullopt;
}

std::vector<EndpointRoute> extra_routes(const EndpointConfig& config, const std::vector<cni::IpAddress>& gateways,
                                        HnsApi api) {
  std::vector<EndpointRoute> routes;
  for (size_t i = 0; i < config.additional_routes.size(); ++i) {
    const ConfigRoute& route = config.additional_routes[i];
    if (route.is_default()) continue;  // the pods' default route is their gateway's (explicit_gateways.hpp)
    const std::string where = fmt::format("additionalRoutes[{}]", i);
    if (api == HnsApi::V1) {
      throw cni::Error(
          cni::kUnsupportedField,
          fmt::format("{}: HNS v1 endpoints carry no routes besides the gateway; set \"apiVersion\": 2", where));
    }
    auto next_hop = route.gw ? route.gw : gateway_of_family(gateways, route.dst->family());
    if (!next_hop) {
      throw cni::Error(cni::kInvalidNetworkConfig,
                       fmt::format("{}: {} has no gateway and the pod has no {} gateway", where, route.dst->str(),
                                   family_name(route.dst->family())));
    }
    routes.push_back({*route.dst, *next_hop});
  }
  return routes;
}

template <typename T, typename Same>
bool same_elements(std::vector<T> a, std::vector<T> b, Same same) {
  if (a.size() != b.size()) return false;
  for (const T& item : a) {
    auto it = std::find_if(b.begin(), b.end(), [&](const T& candidate) { return same(item, candidate); });
    if (it == b.end()) return false;
    b.erase(it);
  }
  return true;
}

template <typename T>
bool same_elements(const std::vector<T>& a, const std::vector<T>& b) {
  return same_elements(a, b, [](const T& x, const T& y) { return x == y; });
}

bool gives_provider_address(const EndpointConfig& config) {
  return std::any_of(config.policies.begin(), config.policies.end(), [](const ConfigPolicy& entry) {
    return entry.target == PolicyTarget::Endpoint && entry.policy.as<hns::ProviderAddressPolicy>() != nullptr;
  });
}

}  // namespace

std::vector<cni::IpPrefix> nat_exceptions(const EndpointConfig& config, const NetworkView& network) {
  std::vector<cni::IpPrefix> exceptions;
  if (config.ip_masq_network) exceptions.push_back(*config.ip_masq_network);
  if (config.ip_masq) {
    // flannel sends both; the node's subnet usually lies in the cluster's.
    for (const SubnetView& subnet : network.subnets) {
      const bool covered = config.ip_masq_network &&
                           config.ip_masq_network->network().contains(subnet.prefix.address()) &&
                           config.ip_masq_network->length() <= subnet.prefix.length();
      if (!covered) exceptions.push_back(subnet.prefix);
    }
  }
  return exceptions;
}

void require_usable(const cni::IpAddress& address, const EndpointSpec& spec, const NetworkView& network,
                    const EndpointFlavor& flavor, std::string_view assigned_by) {
  const SubnetView* subnet = network.subnet_of(address);
  if (subnet == nullptr) {
    unusable(assigned_by, address,
             fmt::format("which is in no subnet of network \"{}\" ({}): the IPAM ranges must match the network",
                         network.name, subnet_list(network)));
  }
  if (subnet->reserved == address) {
    unusable(assigned_by, address, "the address HNS keeps for the subnet's gateway");
  }
  if (std::find(spec.gateways.begin(), spec.gateways.end(), address) != spec.gateways.end()) {
    unusable(assigned_by, address, "the pod's own gateway: keep it out of the addresses IPAM hands out");
  }
  const auto& node = network.host_addresses;
  if (std::find(node.begin(), node.end(), address) != node.end()) {
    unusable(
        assigned_by, address,
        fmt::format("the address of {}: keep it out of the addresses IPAM hands out", flavor.host_endpoint_role()));
  }
}

EndpointSpec plan_endpoint(const PlanRequest& request) {
  const bool hns_assigns = request.addresses.empty();
  const std::vector<PodAddress> addresses = hns_assigns ? stand_ins(request.network) : request.addresses;
  require_one_per_family(addresses);

  EndpointSpec spec;
  spec.id = request.id;
  spec.name = request.name;
  spec.network = request.network.id;
  std::vector<cni::IpAddress> pod_addresses;
  for (const PodAddress& pod : addresses) {
    pod_addresses.push_back(pod.address.address());
    if (!hns_assigns) spec.addresses.push_back(pod.address);
    auto gateway = request.flavor.pod_gateway(request.config, request.network, pod.address.address(), pod.ipam_gateway);
    if (gateway && gateway->family() == pod.address.family()) spec.gateways.push_back(*gateway);
  }
  if (!hns_assigns) {
    for (const PodAddress& pod : addresses)
      require_usable(pod.address.address(), spec, request.network, request.flavor, "IPAM");
  }
  spec.routes = extra_routes(request.config, spec.gateways, request.api);
  spec.dns = request.config.dns;
  spec.mac = request.flavor.mac_for(request.config, spec.addresses);

  spec.policies =
      policies_for_api(assemble_endpoint_policies(endpoint_policy_inputs(
                           request.config, request.flavor, request.network, request.api, pod_addresses, hns_assigns)),
                       request.api);
  return spec;
}

PolicyInputs endpoint_policy_inputs(const EndpointConfig& config, const EndpointFlavor& flavor,
                                    const NetworkView& network, HnsApi api,
                                    const std::vector<cni::IpAddress>& pod_addresses, bool hns_assigns) {
  PolicyInputs inputs;
  inputs.config_policies = config.policies;
  inputs.nat_exceptions = nat_exceptions(config, network);
  inputs.port_mappings = config.port_mappings;
  inputs.local_routed_port_mapping = config.flags.local_routed_port_mapping.value_or(api == HnsApi::V2);
  inputs.allow_acl_port_mapping = config.flags.allow_acl_port_mapping;
  inputs.pod_addresses = pod_addresses;
  inputs.loopback_dsr = config.loopback_dsr && !hns_assigns;
  // A provider address the config gives itself wins over the network's.
  if (!gives_provider_address(config)) inputs.provider_address = flavor.provider_address(network);
  return inputs;
}

std::vector<hns::Policy> late_policies(const EndpointConfig& config, const std::vector<cni::IpPrefix>& addresses,
                                       HnsApi api) {
  if (!config.loopback_dsr) return {};
  PolicyInputs inputs;
  inputs.loopback_dsr = true;
  for (const cni::IpPrefix& address : addresses) inputs.pod_addresses.push_back(address.address());
  return policies_for_api(assemble_endpoint_policies(inputs), api);
}

bool endpoint_matches(const EndpointView& endpoint, const EndpointSpec& spec, HnsApi api) {
  if (!spec.addresses.empty() && !same_elements(endpoint.addresses, spec.addresses)) return false;
  if (!same_elements(endpoint.gateways, spec.gateways)) return false;
  if (api == HnsApi::V2) {
    std::vector<EndpointRoute> extra;
    for (const hns::Route& route : endpoint.routes) {
      if (!route.is_default() && route.destination_prefix && route.next_hop) {
        extra.push_back({*route.destination_prefix, *route.next_hop});
      }
    }
    const auto same_route = [](const EndpointRoute& a, const EndpointRoute& b) {
      return a.destination == b.destination && a.next_hop == b.next_hop;
    };
    if (!same_elements(extra, spec.routes, same_route)) return false;
  }
  cni::Dns wanted = spec.dns;
  if (api == HnsApi::V1) wanted.options.clear();  // v1 endpoints have no place for them
  const cni::Dns& held = endpoint.dns;
  if (held.nameservers != wanted.nameservers || held.search != wanted.search || held.domain != wanted.domain ||
      held.options != wanted.options) {
    return false;
  }
  if (!spec.mac.empty() && hns::MacAddress::parse(spec.mac) != hns::MacAddress::parse(endpoint.mac)) return false;
  return holds_planned_policies(endpoint.policies, spec.policies);
}

}  // namespace wincni::engine
