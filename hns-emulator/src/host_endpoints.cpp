#include <algorithm>

#include "failure.hpp"
#include "hns_owned_policies.hpp"
#include "host.hpp"
#include "ipam.hpp"
#include "mac_pool.hpp"
#include "wincni/cni/json_keys.hpp"
#include "wincni/hns/mac_address.hpp"
#include "wincni/hns/schema/json_io.hpp"

namespace wincni::hns::emulator {
namespace {

using cni::IpFamily;

// A remote endpoint stands for a pod on another node (kube-proxy makes them
// on overlay networks, with that pod's address and a ProviderAddress
// policy): its addresses are in other nodes' subnets, so HNS checks neither
// subnet nor use (kubernetes pkg/proxy/winkernel/hns.go createEndpoint;
// flannel's overlay network holds only the node's own subnet).
std::vector<IpConfig> settle_remote_addresses(const HostComputeNetwork& network, std::vector<IpConfig> requested) {
  if (requested.empty()) throw HcnFailure(hr::kInvalidEndpoint, "a remote endpoint needs its address");
  for (IpConfig& config : requested) {
    if (config.prefix_length != 0) continue;
    const Subnet* subnet = subnet_of(network, config.ip_address);
    config.prefix_length =
        static_cast<std::uint8_t>(subnet ? subnet->ip_address_prefix.length() : (config.ip_address.is_v4() ? 32 : 128));
  }
  return requested;
}

// At most one address per family; each checked, or assigned by HNS IPAM.
std::vector<IpConfig> settle_addresses(EmulatorState& state, const HostComputeNetwork& network,
                                       const std::vector<IpConfig>& requested, const Guid& endpoint_id,
                                       PickOrder order) {
  AddressesInUse in_use = state.addresses_in_use(network.id, endpoint_id);
  std::vector<IpConfig> settled;
  bool has_v4 = false;
  bool has_v6 = false;
  for (const auto& config : requested) {
    bool& seen = config.ip_address.is_v4() ? has_v4 : has_v6;
    if (seen) throw HcnFailure(hr::kInvalidEndpoint, "more than one address of one family");
    seen = true;
    settled.push_back(check_requested_address(network, config, in_use));
  }
  if (!requested.empty()) return settled;
  // HNS IPAM: an IPv4 address, plus an IPv6 one on a dual-stack network.
  std::vector<const Subnet*> subnets = network.subnets();
  auto has_family = [&](bool v4) {
    return std::any_of(subnets.begin(), subnets.end(),
                       [&](const Subnet* subnet) { return subnet->ip_address_prefix.address().is_v4() == v4; });
  };
  bool network_has_v4 = has_family(true);
  bool network_has_v6 = has_family(false);
  if (network_has_v4 || !network_has_v6) settled.push_back(assign_address(network, IpFamily::V4, in_use, order));
  if (network_has_v6) settled.push_back(assign_address(network, IpFamily::V6, in_use, order));
  return settled;
}

std::string settle_mac(EmulatorState& state, const HostComputeNetwork& network, const std::string& requested,
                       PickOrder order) {
  if (requested.empty()) return allocate_mac(state, network, order).str();
  auto mac = MacAddress::parse(requested);
  if (!mac) throw HcnFailure(hr::kInvalidEndpoint, "\"" + requested + "\" is not a MAC address");
  // HNS echoes a given MAC exactly as sent ("0E-2A-0a-01-12-43",
  // projectcalico/calico issue 4682; colons too, microsoft/SDN issue 227).
  return requested;
}

bool contains_ignoring_case(const std::vector<std::string>& items, std::string_view wanted) {
  return std::any_of(items.begin(), items.end(),
                     [&](const std::string& item) { return cni::equals_ignore_case(item, wanted); });
}

}  // namespace

EndpointRecord& Host::endpoint(const Guid& id) {
  EndpointRecord* record = state_.find_endpoint(id);
  if (!record) throw HcnFailure(hr::kEndpointNotFound, "no endpoint " + id.str());
  return *record;
}

const EndpointRecord& Host::create_endpoint(const Guid& network_id, HostComputeEndpoint request, Guid id) {
  const HostComputeNetwork& net = network(network_id).network;
  id = new_object_id(id, request.id);
  if (state_.find_endpoint(id)) {
    throw HcnFailure(rules_.duplicate_code.value_or(hr::kAlreadyExists), "endpoint " + id.str() + " exists");
  }
  check_policies(request.policies, kEndpointScope);
  check_port_mappings(network_id, id, request.policies);

  request.id = id;
  request.host_compute_network = network_id;
  // Read-only: only an attach sets it.
  request.host_compute_namespace = Guid{};
  bool remote = (request.flags & HostComputeEndpoint::kRemoteEndpoint) != 0;
  request.ip_configurations = remote ? settle_remote_addresses(net, std::move(request.ip_configurations))
                                     : settle_addresses(state_, net, request.ip_configurations, id, rules_.picks);
  request.mac_address = settle_mac(state_, net, request.mac_address, rules_.picks);
  add_hns_owned_policies(request, net, rules_.encap_overhead);
  if (!remote && request.routes.empty()) {
    // HNS hands the endpoint its subnet's routes (the default gateway).
    if (const Subnet* subnet = subnet_of(net, request.ip_configurations.front().ip_address)) {
      request.routes = subnet->routes;
    }
  }
  request.schema_version = SchemaVersion{};
  EndpointRecord record;
  record.endpoint = std::move(request);
  return state_.add_endpoint(std::move(record));
}

void Host::delete_endpoint(const Guid& id) {
  EndpointRecord& record = endpoint(id);
  if (HostComputeNamespace* ns = state_.find_namespace(record.endpoint.host_compute_namespace)) {
    std::erase_if(ns->resources, [&](const NamespaceResource& resource) { return resource.id == id; });
  }
  for (ComputeSystemRecord& system : state_.compute_systems()) std::erase(system.network_adapters, id);
  state_.erase_endpoint(id);
}

void Host::modify_endpoint(const Guid& id, const ModifyRequest& request) {
  EndpointRecord& record = endpoint(id);
  if (!cni::equals_ignore_case(request.resource_type, "Policy")) {
    throw HcnFailure(hr::kRequestUnsupported, "cannot modify an endpoint's " + request.resource_type);
  }
  std::vector<Policy> policies = parse_policies_v2(json_io::read_array(request.settings, "Policies"));
  check_policies(policies, kEndpointScope);
  auto& current = record.endpoint.policies;
  switch (request.request_type) {
    case RequestType::Add: {
      std::vector<Policy> combined = current;
      combined.insert(combined.end(), policies.begin(), policies.end());
      check_port_mappings(record.endpoint.host_compute_network, id, combined);
      current = std::move(combined);
      add_hns_owned_policies(record.endpoint, network(record.endpoint.host_compute_network).network,
                             rules_.encap_overhead);
      return;
    }
    case RequestType::Remove:
      remove_policies(current, policies);
      return;
    case RequestType::Update:
      check_port_mappings(record.endpoint.host_compute_network, id, policies);
      current = std::move(policies);
      add_hns_owned_policies(record.endpoint, network(record.endpoint.host_compute_network).network,
                             rules_.encap_overhead);
      return;
    case RequestType::Refresh:
      return;
  }
}

void Host::update_endpoint_policies(const Guid& id, std::vector<Policy> policies) {
  EndpointRecord& record = endpoint(id);
  check_policies(policies, kEndpointScope);
  check_port_mappings(record.endpoint.host_compute_network, id, policies);
  record.endpoint.policies = std::move(policies);
  add_hns_owned_policies(record.endpoint, network(record.endpoint.host_compute_network).network, rules_.encap_overhead);
}

void Host::attach_endpoint(const Guid& id, const EndpointAttachRequest& request) {
  EndpointRecord& record = endpoint(id);
  if (cni::equals_ignore_case(request.system_type, "Host")) {
    if (record.host_attached) throw HcnFailure(hr::kEndpointAlreadyAttached, "already attached to the host");
    record.host_attached = true;
    record.host_compartment = request.compartment_id;
    return;
  }
  if (request.container_id.empty()) throw HcnFailure(hr::kInvalidJson, "attach needs a ContainerId");
  if (contains_ignoring_case(record.shared_containers, request.container_id)) {
    throw HcnFailure(hr::kEndpointAlreadyAttached, "already attached to " + request.container_id);
  }
  record.shared_containers.push_back(request.container_id);
}

void Host::detach_endpoint(const Guid& id, const EndpointAttachRequest& request) {
  EndpointRecord& record = endpoint(id);
  if (cni::equals_ignore_case(request.system_type, "Host")) {
    if (!record.host_attached) throw HcnFailure(hr::kEndpointNotAttached, "not attached to the host");
    record.host_attached = false;
    record.host_compartment = 0;
    return;
  }
  auto& containers = record.shared_containers;
  auto found = std::find_if(containers.begin(), containers.end(), [&](const std::string& container) {
    return cni::equals_ignore_case(container, request.container_id);
  });
  if (found == containers.end()) {
    throw HcnFailure(hr::kEndpointNotAttached, "not attached to container " + request.container_id);
  }
  containers.erase(found);
}

}  // namespace wincni::hns::emulator
