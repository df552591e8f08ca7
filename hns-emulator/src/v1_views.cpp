#include "v1_views.hpp"

#include "wincni/hns/schema/common.hpp"
#include "wincni/hns/schema/schema_error.hpp"

namespace wincni::hns {
namespace {

using cni::IpAddress;
using cni::IpPrefix;

Route default_route(const IpAddress& gateway) {
  IpAddress any = gateway.is_v4() ? IpAddress{} : *IpAddress::parse("::");
  return Route{gateway, IpPrefix(any, 0), 0};
}

std::optional<IpAddress> default_gateway(const std::vector<Route>& routes, bool v4) {
  for (const auto& route : routes) {
    if (route.is_default() && route.next_hop && route.next_hop->is_v4() == v4) return route.next_hop;
  }
  return std::nullopt;
}

}  // namespace

HnsNetwork to_v1(const HostComputeNetwork& network, std::optional<IpAddress> management_ip) {
  HnsNetwork v1;
  v1.id = network.id;
  v1.name = network.name;
  v1.type = network.type;
  for (const auto& policy : network.policies) {
    if (const auto* adapter = policy.as<NetAdapterNamePolicy>()) {
      v1.network_adapter_name = adapter->network_adapter_name;
    } else if (const auto* mac = policy.as<SourceMacAddressPolicy>()) {
      v1.source_mac = mac->source_mac_address;
    } else if (const auto* dns = policy.as<AutomaticDnsPolicy>()) {
      v1.automatic_dns = dns->enable;
    } else {
      v1.policies.push_back(policy);
    }
  }
  v1.mac_pools = network.mac_pool;
  for (const Subnet* subnet : network.subnets()) {
    v1.subnets.push_back({subnet->ip_address_prefix, subnet->gateway(), subnet->policies});
  }
  v1.dns_suffix = join_list(network.dns.search);
  v1.dns_server_list = join_list(network.dns.server_list);
  v1.management_ip = management_ip;
  return v1;
}

HostComputeNetwork to_v2(const HnsNetwork& network) {
  HostComputeNetwork v2;
  v2.id = network.id;
  v2.name = network.name;
  v2.type = network.type;
  if (!network.network_adapter_name.empty()) {
    v2.policies.push_back(Policy{NetAdapterNamePolicy{network.network_adapter_name}});
  }
  if (!network.source_mac.empty()) v2.policies.push_back(Policy{SourceMacAddressPolicy{network.source_mac}});
  if (network.automatic_dns) v2.policies.push_back(Policy{AutomaticDnsPolicy{true}});
  // v1 puts isolation on the network; v2 on each subnet.
  std::vector<Policy> isolation;
  for (const auto& policy : network.policies) {
    if (policy.scopes() == kSubnetScope) {
      isolation.push_back(policy);
    } else {
      v2.policies.push_back(policy);
    }
  }
  v2.mac_pool = network.mac_pools;
  Ipam ipam;
  for (const auto& subnet : network.subnets) {
    if (!subnet.address_prefix) {
      throw SchemaError(SchemaError::Kind::Address, "AddressPrefix", "a subnet needs an AddressPrefix");
    }
    Subnet v2_subnet;
    v2_subnet.ip_address_prefix = *subnet.address_prefix;
    v2_subnet.policies = subnet.policies;
    v2_subnet.policies.insert(v2_subnet.policies.end(), isolation.begin(), isolation.end());
    if (subnet.gateway_address) v2_subnet.routes.push_back(default_route(*subnet.gateway_address));
    ipam.subnets.push_back(std::move(v2_subnet));
  }
  if (!ipam.subnets.empty()) v2.ipams.push_back(std::move(ipam));
  v2.dns.search = split_list(network.dns_suffix);
  v2.dns.server_list = split_list(network.dns_server_list);
  return v2;
}

HnsEndpoint to_v1(const HostComputeEndpoint& endpoint, const HostComputeNetwork& network) {
  HnsEndpoint v1;
  v1.id = endpoint.id;
  v1.name = endpoint.name;
  v1.virtual_network = endpoint.host_compute_network;
  v1.virtual_network_name = network.name;
  for (const auto& policy : endpoint.policies) {
    if (const auto* overhead = policy.as<EncapOverheadPolicy>()) {
      v1.encap_overhead = overhead->overhead;
    } else {
      v1.policies.push_back(policy);
    }
  }
  v1.mac_address = endpoint.mac_address;
  for (const auto& config : endpoint.ip_configurations) {
    if (config.ip_address.is_v4() && !v1.ip_address) {
      v1.ip_address = config.ip_address;
      v1.prefix_length = config.prefix_length;
    } else if (!config.ip_address.is_v4() && !v1.ipv6_address) {
      v1.ipv6_address = config.ip_address;
      v1.ipv6_prefix_length = config.prefix_length;
    }
  }
  v1.gateway_address = default_gateway(endpoint.routes, true);
  v1.gateway_address_v6 = default_gateway(endpoint.routes, false);
  v1.dns_suffix = join_list(endpoint.dns.search);
  v1.dns_server_list = join_list(endpoint.dns.server_list);
  v1.dns_domain = endpoint.dns.domain;
  v1.is_remote_endpoint = (endpoint.flags & HostComputeEndpoint::kRemoteEndpoint) != 0;
  v1.disable_icc = (endpoint.flags & HostComputeEndpoint::kDisableInterComputeCommunication) != 0;
  v1.namespace_id = endpoint.host_compute_namespace;
  return v1;
}

HostComputeEndpoint to_v2(const HnsEndpoint& endpoint) {
  HostComputeEndpoint v2;
  v2.id = endpoint.id;
  v2.name = endpoint.name;
  v2.host_compute_network = endpoint.virtual_network;
  v2.policies = endpoint.policies;
  if (endpoint.encap_overhead != 0) v2.policies.push_back(Policy{EncapOverheadPolicy{endpoint.encap_overhead}});
  if (endpoint.ip_address) v2.ip_configurations.push_back({*endpoint.ip_address, endpoint.prefix_length});
  if (endpoint.ipv6_address) v2.ip_configurations.push_back({*endpoint.ipv6_address, endpoint.ipv6_prefix_length});
  if (endpoint.gateway_address) v2.routes.push_back(default_route(*endpoint.gateway_address));
  if (endpoint.gateway_address_v6) v2.routes.push_back(default_route(*endpoint.gateway_address_v6));
  v2.dns.search = split_list(endpoint.dns_suffix);
  v2.dns.server_list = split_list(endpoint.dns_server_list);
  v2.dns.domain = endpoint.dns_domain;
  v2.mac_address = endpoint.mac_address;
  if (endpoint.is_remote_endpoint) v2.flags |= HostComputeEndpoint::kRemoteEndpoint;
  if (endpoint.disable_icc) v2.flags |= HostComputeEndpoint::kDisableInterComputeCommunication;
  v2.host_compute_namespace = endpoint.namespace_id;
  return v2;
}

HnsNamespace to_v1(const HostComputeNamespace& ns) {
  return HnsNamespace{ns.id, ns.is_default(), ns.resources, ns.namespace_id};
}

}  // namespace wincni::hns
