#include <algorithm>

#include "failure.hpp"
#include "host.hpp"
#include "mac_pool.hpp"
#include "wincni/cni/json_keys.hpp"
#include "wincni/hns/mac_address.hpp"
#include "wincni/hns/schema/json_io.hpp"

namespace wincni::hns::emulator {
namespace {

// Networks that sit on the host's physical adapter learn its address.
bool uses_host_adapter(NetworkType type) {
  return type == NetworkType::Transparent || type == NetworkType::L2Bridge || type == NetworkType::L2Tunnel ||
         type == NetworkType::Overlay;
}

// The distributed router MAC HNS gives an Overlay network; derived from the
// network ID so that it is stable and differs between networks.
std::string distributed_router_mac(const Guid& id) {
  std::uint64_t value = 0x00155D000000ull | (std::uint64_t{id.data1} & 0xFFFFFF);
  return MacAddress::from_value(value).str();
}

void check_subnets(const Host& host, const HostComputeNetwork& network) {
  std::vector<const Subnet*> subnets = network.subnets();
  for (size_t i = 0; i < subnets.size(); ++i) {
    const Subnet& subnet = *subnets[i];
    const auto& prefix = subnet.ip_address_prefix;
    if (!prefix.is_network()) {
      throw HcnFailure(hr::kInvalidPrefix, prefix.str() + " has host bits set");
    }
    if (!prefix.address().is_v4() && !supports(host.version(), Feature::Ipv6DualStack)) {
      throw HcnFailure(hr::kInvalidSubnet, "IPv6 subnets need HNS with IPv6DualStack, not " + host.version().str());
    }
    for (const auto& route : subnet.routes) {
      if (!route.next_hop) throw HcnFailure(hr::kInvalidSubnet, "a subnet route needs a NextHop");
      if (route.is_default() && !prefix.contains(*route.next_hop)) {
        throw HcnFailure(hr::kInvalidSubnet, "gateway " + route.next_hop->str() + " is outside subnet " + prefix.str());
      }
    }
    host.check_policies(subnet.policies, kSubnetScope);
    if (network.type == NetworkType::Overlay &&
        std::none_of(subnet.policies.begin(), subnet.policies.end(),
                     [](const Policy& policy) { return policy.as<VsidPolicy>() != nullptr; })) {
      throw HcnFailure(hr::kInvalidSubnet, "overlay subnet " + prefix.str() + " needs a VSID policy");
    }
    for (size_t j = 0; j < i; ++j) {
      if (subnets[j]->ip_address_prefix.overlaps(prefix)) {
        throw HcnFailure(hr::kInvalidSubnet,
                         "subnets " + subnets[j]->ip_address_prefix.str() + " and " + prefix.str() + " overlap");
      }
    }
  }
}

void check_mac_pool(const HostComputeNetwork& network) {
  for (const auto& range : network.mac_pool) {
    auto start = MacAddress::parse(range.start_mac_address);
    auto end = MacAddress::parse(range.end_mac_address);
    if (!start || !end || *end < *start) {
      throw HcnFailure(hr::kInvalidNetwork,
                       "MAC pool " + range.start_mac_address + " - " + range.end_mac_address + " is not a range");
    }
  }
}

void check_adapter(const HostSettings& host, const HostComputeNetwork& network) {
  const auto* adapter = network.find_policy<NetAdapterNamePolicy>();
  if (adapter && !cni::equals_ignore_case(adapter->network_adapter_name, host.adapter_name)) {
    throw HcnFailure(hr::kAdapterNotFound, "the host has no adapter \"" + adapter->network_adapter_name +
                                               "\" (it has \"" + host.adapter_name + "\")");
  }
}

}  // namespace

NetworkRecord& Host::network(const Guid& id) {
  NetworkRecord* record = state_.find_network(id);
  if (!record) throw HcnFailure(hr::kNetworkNotFound, "no network " + id.str());
  return *record;
}

const NetworkRecord& Host::create_network(HostComputeNetwork request, Guid id) {
  id = new_object_id(id, request.id);
  request.id = id;
  if (request.name.empty()) throw HcnFailure(hr::kInvalidNetwork, "a network needs a Name");
  for (const NetworkRecord* existing : state_.networks()) {
    if (existing->network.id == id) throw HcnFailure(hr::kNetworkAlreadyExists, "network " + id.str() + " exists");
    if (existing->network.name == request.name) {
      throw HcnFailure(rules_.duplicate_code.value_or(hr::kNetworkAlreadyExists),
                       "a network named \"" + request.name + "\" exists");
    }
  }
  check_policies(request.policies, kNetworkScope);
  check_subnets(*this, request);
  check_mac_pool(request);
  check_adapter(state_.host(), request);

  NetworkRecord record;
  if (uses_host_adapter(request.type)) record.management_ip = state_.host().management_ip;
  if (request.type == NetworkType::Overlay) {
    // HNS publishes the provider address and router MAC flanneld reads back.
    if (!request.find_policy<ProviderAddressPolicy>()) {
      request.policies.push_back(Policy{ProviderAddressPolicy{state_.host().management_ip.str()}});
    }
    if (!request.find_policy<DrMacAddressPolicy>()) {
      request.policies.push_back(Policy{DrMacAddressPolicy{distributed_router_mac(id)}});
    }
  }
  request.schema_version = SchemaVersion{};
  record.network = std::move(request);
  return state_.add_network(std::move(record));
}

void Host::delete_network(const Guid& id) {
  network(id);  // not found -> HCN_E_NETWORK_NOT_FOUND
  std::vector<Guid> members;
  for (const EndpointRecord* record : state_.endpoints_on_network(id)) members.push_back(record->endpoint.id);
  for (const auto& endpoint_id : members) delete_endpoint(endpoint_id);
  state_.erase_network(id);
}

void Host::modify_network(const Guid& id, const ModifyRequest& request) {
  NetworkRecord& record = network(id);
  if (cni::equals_ignore_case(request.resource_type, "Policy")) {
    std::vector<Policy> policies = parse_policies_v2(json_io::read_array(request.settings, "Policies"));
    check_policies(policies, kNetworkScope);
    auto& current = record.network.policies;
    switch (request.request_type) {
      case RequestType::Add:
        for (auto& policy : policies) {
          if (std::find(current.begin(), current.end(), policy) != current.end()) {
            throw HcnFailure(hr::kPolicyAlreadyExists, "the network already has this " + policy.type() + " policy");
          }
          current.push_back(std::move(policy));
        }
        return;
      case RequestType::Remove:
        remove_policies(current, policies);
        return;
      case RequestType::Update:
        current = std::move(policies);
        return;
      case RequestType::Refresh:
        return;
    }
  }
  if (cni::equals_ignore_case(request.resource_type, "DNS")) {
    record.network.dns = Dns::from_json(request.settings);
    return;
  }
  throw HcnFailure(hr::kRequestUnsupported, "cannot modify a network's " + request.resource_type);
}

}  // namespace wincni::hns::emulator
