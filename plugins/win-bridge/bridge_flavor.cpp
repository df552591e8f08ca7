#include "wincni/bridge/bridge_flavor.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "wincni/cni/json_keys.hpp"

namespace wincni::bridge {

using engine::EndpointConfig;
using engine::EndpointView;
using engine::NetworkView;
using engine::SubnetView;

cni::IpAddress bridge_endpoint_address(const cni::IpPrefix& subnet) { return subnet.network().address().plus(2); }

std::string bridge_endpoint_name(const NetworkView& network) { return network.name + "_ep"; }

bool BridgeFlavor::accepts(hns::NetworkType type) const {
  return type == hns::NetworkType::L2Bridge || type == hns::NetworkType::L2Tunnel;
}

std::optional<hns::NetworkType> BridgeFlavor::type_to_create(const EndpointConfig& config) const {
  // Microsoft's examples name the network type in "type" ("l2tunnel").
  return cni::equals_ignore_case(config.plugin_type, "l2tunnel") ? hns::NetworkType::L2Tunnel
                                                                 : hns::NetworkType::L2Bridge;
}

cni::IpAddress BridgeFlavor::network_gateway(const EndpointConfig& config, hns::NetworkType type,
                                             const cni::IpPrefix& subnet) const {
  // On L2Bridge the config's gateway is the pods' — the bridge endpoint's
  // address — not the one HNS keeps.
  if (type == hns::NetworkType::L2Bridge) return subnet.network().address().next();
  return EndpointFlavor::network_gateway(config, type, subnet);
}

std::optional<engine::HostEndpointPlan> BridgeFlavor::host_endpoint(const EndpointConfig& config,
                                                                    const NetworkView& network) const {
  if (network.type != hns::NetworkType::L2Bridge) return std::nullopt;
  engine::HostEndpointPlan plan{bridge_endpoint_name(network), {}};
  for (const cni::IpFamily family : {cni::IpFamily::V4, cni::IpFamily::V6}) {
    const SubnetView* subnet = network.first_subnet(family);
    if (subnet == nullptr) continue;
    auto gateway = pod_gateway(config, network, subnet->prefix.address(), std::nullopt);
    // A gateway HNS keeps for itself (an explicit .1) cannot be an
    // endpoint's; the pods of that family route through HNS's.
    if (!gateway || gateway == subnet->reserved || !subnet->prefix.contains(*gateway)) continue;
    plan.addresses.emplace_back(*gateway, subnet->prefix.length());
  }
  return plan;
}

std::optional<cni::IpAddress> BridgeFlavor::pod_gateway(const EndpointConfig& config, const NetworkView& network,
                                                        const cni::IpAddress& address,
                                                        const std::optional<cni::IpAddress>& ipam_gateway) const {
  const SubnetView* subnet = network.subnet_of(address);
  if (network.type != hns::NetworkType::L2Bridge || subnet == nullptr) {
    return EndpointFlavor::pod_gateway(config, network, address, ipam_gateway);
  }
  const cni::IpAddress bridge = bridge_endpoint_address(subnet->prefix);
  if (config.flags.force_bridge_gateway) return bridge;
  if (auto explicit_gateway = config.gateways.for_address(address)) return explicit_gateway;
  return bridge;
}

nlohmann::json BridgeFlavor::ipam_for_add(const EndpointConfig& config, const NetworkView& network,
                                          nlohmann::json ipam) const {
  if (!cni::equals_ignore_case(config.ipam_type, "host-local")) return ipam;
  for (const engine::IpamRange& range : config.ipam_ranges) {
    if (range.range_start) continue;  // the operator chose it
    const cni::IpAddress network_address = range.subnet.network().address();
    std::set<cni::IpAddress> kept_out;
    if (const SubnetView* subnet = network.subnet_of(network_address)) {
      if (subnet->reserved) kept_out.insert(*subnet->reserved);
    }
    if (auto gateway = pod_gateway(config, network, network_address, range.gateway)) kept_out.insert(*gateway);
    for (const cni::IpAddress& held : network.host_addresses) {
      if (range.subnet.contains(held)) kept_out.insert(held);
    }
    cni::IpAddress start = network_address.next();
    while (kept_out.contains(start)) start = start.next();
    if (start != network_address.next()) ipam = engine::with_range_start(std::move(ipam), range, start);
  }
  return ipam;
}

std::optional<std::string> BridgeFlavor::connectivity_problem(const EndpointConfig& config, const NetworkView& network,
                                                              const EndpointQueries& endpoints) const {
  if (network.type != hns::NetworkType::L2Bridge) return std::nullopt;
  // The bridge endpoint by its name first: one query, on every kubelet poll,
  // where listing reads every pod's endpoint. The list only when another
  // endpoint holds the gateway, or none does.
  std::optional<std::optional<EndpointView>> bridge_endpoint;
  std::optional<std::vector<EndpointView>> all;
  for (const SubnetView& subnet : network.subnets) {
    auto gateway = pod_gateway(config, network, subnet.prefix.address(), std::nullopt);
    if (!gateway) continue;
    const auto holds_gateway = [&](const EndpointView& endpoint) {
      return std::any_of(endpoint.addresses.begin(), endpoint.addresses.end(),
                         [&](const cni::IpPrefix& address) { return address.address() == *gateway; });
    };
    if (!bridge_endpoint) bridge_endpoint = endpoints.named(bridge_endpoint_name(network));
    if (*bridge_endpoint && holds_gateway(**bridge_endpoint)) continue;
    if (!all) all = endpoints.all();
    if (!std::any_of(all->begin(), all->end(), holds_gateway)) {
      return fmt::format(
          "no endpoint on network \"{}\" holds {}, the pods' gateway (the host's bridge endpoint, "
          "flanneld's {}): pods will not reach beyond the node",
          network.name, gateway->str(), bridge_endpoint_name(network));
    }
  }
  return std::nullopt;
}

}  // namespace wincni::bridge
