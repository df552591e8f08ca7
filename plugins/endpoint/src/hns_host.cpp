#include "hns_hosts.hpp"

namespace wincni::endpoint {

const SubnetView* NetworkView::subnet_of(const cni::IpAddress& address) const {
  for (const SubnetView& subnet : subnets) {
    if (subnet.prefix.contains(address)) return &subnet;
  }
  return nullptr;
}

const SubnetView* NetworkView::first_subnet(cni::IpFamily family) const {
  for (const SubnetView& subnet : subnets) {
    if (subnet.prefix.family() == family) return &subnet;
  }
  return nullptr;
}

SubnetView subnet_view(const cni::IpPrefix& prefix, std::optional<cni::IpAddress> gateway, bool do_not_reserve) {
  SubnetView view{prefix.network(), gateway, gateway};
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

std::vector<hns::Policy> typed_policies(const std::vector<AssembledPolicy>& policies) {
  std::vector<hns::Policy> typed;
  typed.reserve(policies.size());
  for (const AssembledPolicy& entry : policies) typed.push_back(entry.policy);
  return typed;
}

bool is_host_attached(hns::HnsClient& client, const hns::Guid& endpoint) {
  const auto v1 = client.get_hns_endpoint(endpoint);
  return v1 && v1->state == hns::EndpointState::Attached && v1->shared_containers.empty() &&
         v1->namespace_id.is_null();
}

std::unique_ptr<HnsHost> make_hns_host(HnsApi api, std::shared_ptr<hns::HnsClient> client) {
  return api == HnsApi::V2 ? make_v2_host(std::move(client)) : make_v1_host(std::move(client));
}

}  // namespace wincni::endpoint
