#include "hns/access_parts.hpp"

#include "config/config_route.hpp"
#include "wincni/engine/attachment_liveness.hpp"

namespace wincni::engine {

SubnetView subnet_view(const cni::IpPrefix& prefix, std::optional<cni::IpAddress> gateway, bool do_not_reserve,
                       std::vector<hns::Policy> policies) {
  SubnetView view{prefix.network(), gateway, gateway, std::move(policies)};
  if (!view.reserved && !do_not_reserve) view.reserved = view.prefix.address().next();
  return view;
}

cni::IpPrefix with_prefix_length(const cni::IpAddress& address, int length, const NetworkView* network) {
  if (length == 0 && network != nullptr) {
    if (const SubnetView* subnet = network->subnet_of(address)) length = subnet->prefix.length();
  }
  return cni::IpPrefix(address, length == 0 ? address.bits() : length);
}

cni::Dns to_cni_dns(const hns::Dns& dns) {
  cni::Dns out;
  out.nameservers = dns.server_list;
  out.domain = dns.domain;
  out.search = dns.search;
  out.options = dns.options;
  return out;
}

hns::Dns to_hns_dns(const cni::Dns& dns) {
  hns::Dns out;
  out.server_list = dns.nameservers;
  out.domain = dns.domain;
  out.search = dns.search;
  out.options = dns.options;
  return out;
}

std::optional<cni::IpAddress> provider_address_policy(const std::vector<hns::Policy>& policies) {
  const auto* pa = find_policy<hns::ProviderAddressPolicy>(policies);
  return pa != nullptr ? cni::IpAddress::parse(pa->provider_address) : std::nullopt;
}

hns::Route hns_route(const cni::IpPrefix& destination, const cni::IpAddress& next_hop) {
  hns::Route out;
  out.destination_prefix = destination;
  out.next_hop = next_hop;
  return out;
}

hns::HostComputeNetwork hcn_network_settings(const NetworkSpec& spec) {
  hns::HostComputeNetwork settings;
  settings.id = spec.id;
  settings.name = spec.name;
  settings.type = spec.type;
  settings.dns = to_hns_dns(spec.dns);
  settings.policies = spec.policies;
  if (!settings.find_policy<hns::NetAdapterNamePolicy>()) {
    settings.policies.push_back(hns::Policy{hns::NetAdapterNamePolicy{spec.adapter}});
  }
  if (spec.non_persistent) settings.flags |= hns::HostComputeNetwork::kEnableNonPersistent;
  hns::Ipam ipam;
  for (const NetworkSpec::Subnet& subnet : spec.subnets) {
    hns::Subnet hcn_subnet;
    hcn_subnet.ip_address_prefix = subnet.prefix;
    hcn_subnet.policies = spec.subnet_policies;
    hcn_subnet.routes.push_back(hns_route(default_destination(subnet.prefix.family()), subnet.gateway));
    ipam.subnets.push_back(std::move(hcn_subnet));
  }
  settings.ipams.push_back(std::move(ipam));
  return settings;
}

hns::HostComputeEndpoint hcn_endpoint_settings(const EndpointSpec& spec) {
  hns::HostComputeEndpoint settings;
  settings.id = spec.id;
  settings.name = spec.name;
  settings.host_compute_network = spec.network;
  settings.policies = spec.policies;
  for (const cni::IpPrefix& address : spec.addresses) {
    settings.ip_configurations.push_back({address.address(), static_cast<std::uint8_t>(address.length())});
  }
  settings.dns = to_hns_dns(spec.dns);
  for (const cni::IpAddress& gateway : spec.gateways) {
    settings.routes.push_back(hns_route(default_destination(gateway.family()), gateway));
  }
  for (const EndpointRoute& extra : spec.routes)
    settings.routes.push_back(hns_route(extra.destination, extra.next_hop));
  settings.mac_address = spec.mac;
  return settings;
}

std::vector<NetworkView> ClientAccess::list_networks() {
  std::vector<NetworkView> views;
  const auto add = [&views](const auto& network) {
    NetworkView view;
    view.id = network.id;
    view.name = network.name;
    view.type = network.type;
    views.push_back(std::move(view));
  };
  if (client_->supports(hns::Feature::ApiV2)) {
    for (const auto& network : client_->list_networks()) add(network);
  } else {
    for (const auto& network : client_->list_hns_networks()) add(network);
  }
  return views;
}

bool ClientAccess::is_host_attached(const EndpointView& endpoint) {
  const auto v1 = client_->get_hns_endpoint(endpoint.id);
  return v1 && v1->state == hns::EndpointState::Attached && v1->shared_containers.empty() && v1->namespace_id.is_null();
}

Occupancy ClientAccess::occupancy(const EndpointView& endpoint) {
  try {
    hns::Guid ns = endpoint.ns;
    std::vector<std::string> containers = endpoint.containers;
    if (const auto v1 = client_->get_hns_endpoint(endpoint.id)) {
      if (ns.is_null()) ns = v1->namespace_id;
      if (containers.empty()) containers = v1->shared_containers;
    }
    if (ns.is_null() && containers.empty()) return Occupancy::Unattached;
    const auto namespace_exists = [this](const hns::Guid& id) { return client_->find_namespace(id).has_value(); };
    return serves_live_sandbox(*client_, ns, containers, namespace_exists) ? Occupancy::Live : Occupancy::Gone;
  } catch (const std::exception&) {
    return Occupancy::Live;  // what HNS cannot say is no proof of death
  }
}

std::unique_ptr<HnsAccess> make_hns_access(HnsApi api, std::shared_ptr<hns::HnsClient> client) {
  return api == HnsApi::V2 ? make_v2_access(std::move(client)) : make_v1_access(std::move(client));
}

}  // namespace wincni::engine
