#include "wincni/hns/schema/hns_v1.hpp"

#include "wincni/cni/json_keys.hpp"
#include "wincni/hns/schema/json_io.hpp"

namespace wincni::hns {
namespace {

using namespace json_io;
using cni::IpAddress;
using cni::IpPrefix;

void put_address(Json& out, std::string_view key, const std::optional<IpAddress>& address) {
  if (address) out[std::string(key)] = address->str();
}
}  // namespace

// --- HNSNetwork ---------------------------------------------------------------

HnsNetwork HnsNetwork::from_json(const Json& value) {
  require_object(value, "network");
  HnsNetwork network;
  network.id = read_guid(value, "ID");
  network.name = read_string(value, "Name");
  std::string type = read_string(value, "Type");
  if (!type.empty()) {
    auto parsed = parse_network_type(type);
    if (!parsed) throw SchemaError(SchemaError::Kind::NetworkType, "Type", "unknown network type \"" + type + "\"");
    network.type = *parsed;
  }
  network.network_adapter_name = read_string(value, "NetworkAdapterName");
  network.source_mac = read_string(value, "SourceMac");
  network.policies = parse_policies_v1(read_array(value, "Policies"));
  for (const auto& pool : read_array(value, "MacPools")) {
    require_object(pool, "MacPools");
    network.mac_pools.push_back({read_string(pool, "StartMacAddress"), read_string(pool, "EndMacAddress")});
  }
  for (const auto& item : read_array(value, "Subnets")) {
    require_object(item, "Subnets");
    HnsSubnet subnet;
    subnet.address_prefix = read_prefix(item, "AddressPrefix");
    subnet.gateway_address = read_address(item, "GatewayAddress");
    subnet.policies = parse_policies_v1(read_array(item, "Policies"));
    network.subnets.push_back(std::move(subnet));
  }
  network.dns_suffix = read_string(value, "DNSSuffix");
  network.dns_server_list = read_string(value, "DNSServerList");
  network.dns_server_compartment = read_uint<std::uint32_t>(value, "DNSServerCompartment");
  network.management_ip = read_address(value, "ManagementIP");
  network.automatic_dns = read_bool(value, "AutomaticDNS");
  return network;
}

Json HnsNetwork::to_json() const {
  Json out = Json::object();
  put_guid(out, "ID", id);
  out["Name"] = name;
  out["Type"] = std::string(network_type_name(type));
  put_string(out, "NetworkAdapterName", network_adapter_name);
  put_string(out, "SourceMac", source_mac);
  if (!policies.empty()) out["Policies"] = render_policies_v1(policies);
  if (!mac_pools.empty()) {
    Json pools = Json::array();
    for (const auto& pool : mac_pools) {
      pools.push_back({{"StartMacAddress", pool.start_mac_address}, {"EndMacAddress", pool.end_mac_address}});
    }
    out["MacPools"] = std::move(pools);
  }
  if (!subnets.empty()) {
    Json items = Json::array();
    for (const auto& subnet : subnets) {
      Json item = Json::object();
      if (subnet.address_prefix) item["AddressPrefix"] = subnet.address_prefix->str();
      put_address(item, "GatewayAddress", subnet.gateway_address);
      if (!subnet.policies.empty()) item["Policies"] = render_policies_v1(subnet.policies);
      items.push_back(std::move(item));
    }
    out["Subnets"] = std::move(items);
  }
  put_string(out, "DNSSuffix", dns_suffix);
  put_string(out, "DNSServerList", dns_server_list);
  put_uint(out, "DNSServerCompartment", dns_server_compartment);
  put_address(out, "ManagementIP", management_ip);
  put_bool(out, "AutomaticDNS", automatic_dns);
  return out;
}

// --- HNSEndpoint --------------------------------------------------------------

HnsEndpoint HnsEndpoint::from_json(const Json& value) {
  require_object(value, "endpoint");
  HnsEndpoint endpoint;
  endpoint.id = read_guid(value, "ID");
  endpoint.name = read_string(value, "Name");
  endpoint.virtual_network = read_guid(value, "VirtualNetwork");
  endpoint.virtual_network_name = read_string(value, "VirtualNetworkName");
  endpoint.policies = parse_policies_v1(read_array(value, "Policies"));
  endpoint.mac_address = read_string(value, "MacAddress");
  endpoint.ip_address = read_address(value, "IPAddress");
  endpoint.ipv6_address = read_address(value, "IPv6Address");
  endpoint.dns_suffix = read_string(value, "DNSSuffix");
  endpoint.dns_server_list = read_string(value, "DNSServerList");
  endpoint.dns_domain = read_string(value, "DNSDomain");
  endpoint.gateway_address = read_address(value, "GatewayAddress");
  endpoint.gateway_address_v6 = read_address(value, "GatewayAddressV6");
  endpoint.enable_internal_dns = read_bool(value, "EnableInternalDNS");
  endpoint.disable_icc = read_bool(value, "DisableICC");
  endpoint.is_remote_endpoint = read_bool(value, "IsRemoteEndpoint");
  endpoint.enable_low_metric = read_bool(value, "EnableLowMetric");
  endpoint.prefix_length = read_uint<std::uint8_t>(value, "PrefixLength");
  endpoint.ipv6_prefix_length = read_uint<std::uint8_t>(value, "IPv6PrefixLength");
  endpoint.namespace_id = read_guid(read_object(value, "Namespace"), "ID");
  endpoint.encap_overhead = read_uint<std::uint16_t>(value, "EncapOverhead");
  endpoint.shared_containers = read_strings(value, "SharedContainers");
  std::uint16_t state = read_uint<std::uint16_t>(value, "State");
  if (state > static_cast<std::uint16_t>(EndpointState::Destroyed)) {
    throw SchemaError(SchemaError::Kind::Value, "State", "unknown endpoint state " + std::to_string(state));
  }
  endpoint.state = static_cast<EndpointState>(state);
  return endpoint;
}

Json HnsEndpoint::to_json() const {
  Json out = Json::object();
  put_guid(out, "ID", id);
  out["Name"] = name;
  put_guid(out, "VirtualNetwork", virtual_network);
  put_string(out, "VirtualNetworkName", virtual_network_name);
  if (!policies.empty()) out["Policies"] = render_policies_v1(policies);
  put_string(out, "MacAddress", mac_address);
  put_address(out, "IPAddress", ip_address);
  put_address(out, "IPv6Address", ipv6_address);
  put_string(out, "DNSSuffix", dns_suffix);
  put_string(out, "DNSServerList", dns_server_list);
  put_string(out, "DNSDomain", dns_domain);
  put_address(out, "GatewayAddress", gateway_address);
  put_address(out, "GatewayAddressV6", gateway_address_v6);
  put_bool(out, "EnableInternalDNS", enable_internal_dns);
  put_bool(out, "DisableICC", disable_icc);
  put_bool(out, "IsRemoteEndpoint", is_remote_endpoint);
  put_bool(out, "EnableLowMetric", enable_low_metric);
  put_uint(out, "PrefixLength", prefix_length);
  put_uint(out, "IPv6PrefixLength", ipv6_prefix_length);
  if (!namespace_id.is_null()) out["Namespace"] = {{"ID", namespace_id.str()}};
  put_uint(out, "EncapOverhead", encap_overhead);
  put_strings(out, "SharedContainers", shared_containers);
  put_uint(out, "State", static_cast<std::uint16_t>(state));
  return out;
}

// --- namespace, attach request, envelope ----------------------------------------

HnsNamespace HnsNamespace::from_json(const Json& value) {
  require_object(value, "namespace");
  HnsNamespace ns;
  ns.id = read_guid(value, "ID");
  ns.is_default = read_bool(value, "IsDefault");
  for (const auto& item : read_array(value, "ResourceList")) {
    require_object(item, "ResourceList");
    ns.resource_list.push_back({read_string(item, "Type"), read_guid(read_object(item, "Data"), "Id")});
  }
  ns.compartment_id = read_uint<std::uint32_t>(value, "CompartmentId");
  return ns;
}

Json HnsNamespace::to_json() const {
  Json out = Json::object();
  put_guid(out, "ID", id);
  put_bool(out, "IsDefault", is_default);
  Json resources = Json::array();
  for (const auto& resource : resource_list) {
    resources.push_back({{"Type", resource.type}, {"Data", {{"Id", resource.id.str()}}}});
  }
  out["ResourceList"] = std::move(resources);
  put_uint(out, "CompartmentId", compartment_id);
  return out;
}

EndpointAttachRequest EndpointAttachRequest::from_json(const Json& value) {
  require_object(value, "request");
  EndpointAttachRequest request;
  request.container_id = read_string(value, "ContainerId");
  std::string system_type = read_string(value, "SystemType");
  if (!system_type.empty()) request.system_type = system_type;
  request.compartment_id = read_uint<std::uint16_t>(value, "CompartmentId");
  request.virtual_nic_name = read_string(value, "VirtualNicName");
  return request;
}

Json EndpointAttachRequest::to_json() const {
  Json out = {{"SystemType", system_type}};
  put_string(out, "ContainerId", container_id);
  put_uint(out, "CompartmentId", compartment_id);
  put_string(out, "VirtualNicName", virtual_nic_name);
  return out;
}

HnsEnvelope HnsEnvelope::from_json(const Json& value) {
  require_object(value, "response");
  HnsEnvelope envelope;
  envelope.success = read_bool(value, "Success");
  envelope.error = read_string(value, "Error");
  if (const Json* output = field(value, "Output")) envelope.output = *output;
  if (const Json* code = field(value, "ErrorCode"); code && code->is_number_unsigned()) {
    envelope.error_code = code->get<HResult>();
  }
  return envelope;
}

HnsEnvelope HnsEnvelope::ok(Json output) { return HnsEnvelope{true, {}, std::move(output)}; }

HnsEnvelope HnsEnvelope::failure(std::string error, HResult code) {
  return HnsEnvelope{false, std::move(error), nullptr, code};
}

Json HnsEnvelope::to_json() const {
  Json out = Json::object();
  out["Success"] = success;
  if (!success) out["Error"] = error;
  if (!success && error_code != 0) out["ErrorCode"] = error_code;
  if (!output.is_null()) out["Output"] = output;
  return out;
}

}  // namespace wincni::hns
