#include "wincni/hns/schema/hcn.hpp"

#include "wincni/cni/json_keys.hpp"
#include "wincni/hns/schema/json_io.hpp"

namespace wincni::hns {
namespace {

using namespace json_io;

SchemaVersion read_schema_version(const Json& object) {
  const Json& value = read_object(object, "SchemaVersion");
  SchemaVersion version;
  if (field(value, "Major")) version.major = read_uint<std::uint32_t>(value, "Major");
  if (field(value, "Minor")) version.minor = read_uint<std::uint32_t>(value, "Minor");
  return version;
}

// Load balancers and SDN routes list their endpoints as "HostComputeEndpoints".
std::vector<Guid> read_endpoint_ids(const Json& object) {
  std::vector<Guid> ids;
  for (const std::string& text : read_strings(object, "HostComputeEndpoints")) {
    auto id = Guid::parse(text);
    if (!id) throw SchemaError(SchemaError::Kind::Value, "HostComputeEndpoints", "not a GUID: \"" + text + "\"");
    ids.push_back(*id);
  }
  return ids;
}

void put_endpoint_ids(Json& object, const std::vector<Guid>& ids) {
  if (ids.empty()) return;
  Json items = Json::array();
  for (const Guid& id : ids) items.push_back(id.str());
  object["HostComputeEndpoints"] = std::move(items);
}

// An array of objects, each written by `write`; left out when empty.
template <class Item, class Write>
void put_objects(Json& object, std::string_view key, const std::vector<Item>& items, Write write) {
  if (items.empty()) return;
  Json array = Json::array();
  for (const Item& item : items) {
    Json entry = Json::object();
    write(entry, item);
    array.push_back(std::move(entry));
  }
  object[std::string(key)] = std::move(array);
}

Json schema_version_json(const SchemaVersion& version) {
  return Json{{"Major", version.major}, {"Minor", version.minor}};
}

template <class T>
std::vector<T> read_list(const Json& object, std::string_view key) {
  std::vector<T> items;
  for (const auto& item : read_array(object, key)) items.push_back(T::from_json(item));
  return items;
}

template <class T>
void put_list(Json& object, std::string_view key, const std::vector<T>& items) {
  if (items.empty()) return;
  Json array = Json::array();
  for (const auto& item : items) array.push_back(item.to_json());
  object[std::string(key)] = std::move(array);
}

void put_policies(Json& object, const std::vector<Policy>& policies) {
  if (!policies.empty()) object["Policies"] = render_policies_v2(policies);
}

}  // namespace

std::optional<cni::IpAddress> Subnet::gateway() const {
  for (const auto& route : routes) {
    if (route.is_default() && route.next_hop) return route.next_hop;
  }
  return std::nullopt;
}

Subnet Subnet::from_json(const Json& value) {
  require_object(value, "Subnets");
  Subnet subnet;
  auto prefix = read_prefix(value, "IpAddressPrefix");
  if (!prefix) throw SchemaError(SchemaError::Kind::Address, "IpAddressPrefix", "a subnet needs an IpAddressPrefix");
  subnet.ip_address_prefix = *prefix;
  subnet.policies = parse_policies_v2(read_array(value, "Policies"));
  subnet.routes = read_list<Route>(value, "Routes");
  subnet.flags = read_uint<std::uint32_t>(value, "Flags");
  return subnet;
}

Json Subnet::to_json() const {
  Json out = {{"IpAddressPrefix", ip_address_prefix.str()}};
  put_policies(out, policies);
  put_list(out, "Routes", routes);
  put_uint(out, "Flags", flags);
  return out;
}

Ipam Ipam::from_json(const Json& value) {
  require_object(value, "Ipams");
  Ipam ipam;
  std::string type = read_string(value, "Type");
  if (!type.empty()) ipam.type = type;
  ipam.subnets = read_list<Subnet>(value, "Subnets");
  return ipam;
}

Json Ipam::to_json() const {
  Json out = {{"Type", type}};
  put_list(out, "Subnets", subnets);
  return out;
}

std::vector<const Subnet*> HostComputeNetwork::subnets() const {
  std::vector<const Subnet*> all;
  for (const auto& ipam : ipams) {
    for (const auto& subnet : ipam.subnets) all.push_back(&subnet);
  }
  return all;
}

HostComputeNetwork HostComputeNetwork::from_json(const Json& value) {
  require_object(value, "network");
  HostComputeNetwork network;
  network.id = read_guid(value, "ID");
  network.name = read_string(value, "Name");
  std::string type = read_string(value, "Type");
  if (!type.empty()) {
    auto parsed = parse_network_type(type);
    if (!parsed) throw SchemaError(SchemaError::Kind::NetworkType, "Type", "unknown network type \"" + type + "\"");
    network.type = *parsed;
  }
  network.policies = parse_policies_v2(read_array(value, "Policies"));
  for (const auto& range : read_array(read_object(value, "MacPool"), "Ranges")) {
    require_object(range, "MacPool.Ranges");
    network.mac_pool.push_back({read_string(range, "StartMacAddress"), read_string(range, "EndMacAddress")});
  }
  network.dns = Dns::from_json(read_object(value, "Dns"));
  network.ipams = read_list<Ipam>(value, "Ipams");
  network.flags = read_uint<std::uint32_t>(value, "Flags");
  network.schema_version = read_schema_version(value);
  return network;
}

Json HostComputeNetwork::to_json() const {
  Json out = Json::object();
  put_guid(out, "ID", id);
  out["Name"] = name;
  if (type != NetworkType::NAT) out["Type"] = std::string(network_type_name(type));
  put_policies(out, policies);
  if (!mac_pool.empty()) {
    Json ranges = Json::array();
    for (const auto& range : mac_pool) {
      ranges.push_back({{"StartMacAddress", range.start_mac_address}, {"EndMacAddress", range.end_mac_address}});
    }
    out["MacPool"] = {{"Ranges", std::move(ranges)}};
  }
  if (!dns.empty()) out["Dns"] = dns.to_json();
  put_list(out, "Ipams", ipams);
  out["Flags"] = flags;
  out["SchemaVersion"] = schema_version_json(schema_version);
  return out;
}

IpConfig IpConfig::from_json(const Json& value) {
  require_object(value, "IpConfigurations");
  IpConfig config;
  auto address = read_address(value, "IpAddress");
  if (!address) throw SchemaError(SchemaError::Kind::Address, "IpAddress", "an IP configuration needs an IpAddress");
  config.ip_address = *address;
  config.prefix_length = read_uint<std::uint8_t>(value, "PrefixLength");
  if (config.prefix_length > config.ip_address.bits()) {
    throw SchemaError(SchemaError::Kind::Value, "PrefixLength",
                      "longer than the address (" + std::to_string(config.prefix_length) + ")");
  }
  return config;
}

Json IpConfig::to_json() const {
  Json out = {{"IpAddress", ip_address.str()}};
  put_uint(out, "PrefixLength", prefix_length);
  return out;
}

HostComputeEndpoint HostComputeEndpoint::from_json(const Json& value) {
  require_object(value, "endpoint");
  HostComputeEndpoint endpoint;
  endpoint.id = read_guid(value, "ID");
  endpoint.name = read_string(value, "Name");
  endpoint.host_compute_network = read_guid(value, "HostComputeNetwork");
  endpoint.host_compute_namespace = read_guid(value, "HostComputeNamespace");
  endpoint.policies = parse_policies_v2(read_array(value, "Policies"));
  endpoint.ip_configurations = read_list<IpConfig>(value, "IpConfigurations");
  endpoint.dns = Dns::from_json(read_object(value, "Dns"));
  endpoint.routes = read_list<Route>(value, "Routes");
  endpoint.mac_address = read_string(value, "MacAddress");
  endpoint.flags = read_uint<std::uint32_t>(value, "Flags");
  endpoint.schema_version = read_schema_version(value);
  return endpoint;
}

Json HostComputeEndpoint::to_json() const {
  Json out = Json::object();
  put_guid(out, "ID", id);
  out["Name"] = name;
  put_guid(out, "HostComputeNetwork", host_compute_network);
  put_guid(out, "HostComputeNamespace", host_compute_namespace);
  put_policies(out, policies);
  put_list(out, "IpConfigurations", ip_configurations);
  if (!dns.empty()) out["Dns"] = dns.to_json();
  put_list(out, "Routes", routes);
  put_string(out, "MacAddress", mac_address);
  out["Flags"] = flags;
  out["SchemaVersion"] = schema_version_json(schema_version);
  return out;
}

bool HostComputeNamespace::is_default() const {
  return cni::equals_ignore_case(type, "HostDefault") || cni::equals_ignore_case(type, "GuestDefault");
}

std::vector<Guid> HostComputeNamespace::endpoint_ids() const {
  std::vector<Guid> ids;
  for (const auto& resource : resources) {
    if (cni::equals_ignore_case(resource.type, "Endpoint")) ids.push_back(resource.id);
  }
  return ids;
}

HostComputeNamespace HostComputeNamespace::from_json(const Json& value) {
  require_object(value, "namespace");
  HostComputeNamespace ns;
  ns.id = read_guid(value, "ID");
  ns.namespace_id = read_uint<std::uint32_t>(value, "NamespaceId");
  ns.type = read_string(value, "Type");
  for (const auto& item : read_array(value, "Resources")) {
    require_object(item, "Resources");
    ns.resources.push_back({read_string(item, "Type"), read_guid(read_object(item, "Data"), "ID")});
  }
  ns.schema_version = read_schema_version(value);
  return ns;
}

Json HostComputeNamespace::to_json() const {
  Json out = Json::object();
  put_guid(out, "ID", id);
  put_uint(out, "NamespaceId", namespace_id);
  put_string(out, "Type", type);
  if (!resources.empty()) {
    Json items = Json::array();
    for (const auto& resource : resources) {
      items.push_back({{"Type", resource.type}, {"Data", {{"ID", resource.id.str()}}}});
    }
    out["Resources"] = std::move(items);
  }
  out["SchemaVersion"] = schema_version_json(schema_version);
  return out;
}

HostComputeLoadBalancer HostComputeLoadBalancer::from_json(const Json& value) {
  require_object(value, "load balancer");
  HostComputeLoadBalancer lb;
  lb.id = read_guid(value, "ID");
  lb.host_compute_endpoints = read_endpoint_ids(value);
  lb.source_vip = read_string(value, "SourceVIP");
  lb.frontend_vips = read_strings(value, "FrontendVIPs");
  for (const auto& item : read_array(value, "PortMappings")) {
    require_object(item, "PortMappings");
    lb.port_mappings.push_back(
        {read_uint<std::uint32_t>(item, "Protocol"), read_uint<std::uint16_t>(item, "InternalPort"),
         read_uint<std::uint16_t>(item, "ExternalPort"), read_uint<std::uint32_t>(item, "DistributionType"),
         read_uint<std::uint32_t>(item, "Flags")});
  }
  lb.schema_version = read_schema_version(value);
  lb.flags = read_uint<std::uint32_t>(value, "Flags");
  return lb;
}

Json HostComputeLoadBalancer::to_json() const {
  Json out = Json::object();
  put_guid(out, "ID", id);
  put_endpoint_ids(out, host_compute_endpoints);
  put_string(out, "SourceVIP", source_vip);
  put_strings(out, "FrontendVIPs", frontend_vips);
  put_objects(out, "PortMappings", port_mappings, [](Json& item, const LoadBalancerPortMapping& mapping) {
    put_uint(item, "Protocol", mapping.protocol);
    put_uint(item, "InternalPort", mapping.internal_port);
    put_uint(item, "ExternalPort", mapping.external_port);
    put_uint(item, "DistributionType", mapping.distribution_type);
    put_uint(item, "Flags", mapping.flags);
  });
  out["SchemaVersion"] = schema_version_json(schema_version);
  put_uint(out, "Flags", flags);
  return out;
}

HostComputeRoute HostComputeRoute::from_json(const Json& value) {
  require_object(value, "SDN route");
  HostComputeRoute route;
  route.id = read_guid(value, "ID");
  route.host_compute_endpoints = read_endpoint_ids(value);
  for (const auto& item : read_array(value, "Setting")) {
    require_object(item, "Setting");
    route.settings.push_back(
        {read_string(item, "DestinationPrefix"), read_string(item, "NextHop"), read_bool(item, "NeedEncap")});
  }
  route.schema_version = read_schema_version(value);
  return route;
}

Json HostComputeRoute::to_json() const {
  Json out = Json::object();
  put_guid(out, "ID", id);
  put_endpoint_ids(out, host_compute_endpoints);
  put_objects(out, "Setting", settings, [](Json& item, const SdnRouteSetting& setting) {
    put_string(item, "DestinationPrefix", setting.destination_prefix);
    put_string(item, "NextHop", setting.next_hop);
    put_bool(item, "NeedEncap", setting.need_encap);
  });
  out["SchemaVersion"] = schema_version_json(schema_version);
  return out;
}

std::optional<RequestType> parse_request_type(std::string_view text) {
  for (RequestType type : {RequestType::Add, RequestType::Remove, RequestType::Update, RequestType::Refresh}) {
    if (cni::equals_ignore_case(request_type_name(type), text)) return type;
  }
  return std::nullopt;
}

std::string_view request_type_name(RequestType type) {
  switch (type) {
    case RequestType::Add:
      return "Add";
    case RequestType::Remove:
      return "Remove";
    case RequestType::Update:
      return "Update";
    case RequestType::Refresh:
      return "Refresh";
  }
  return "Add";
}

ModifyRequest ModifyRequest::from_json(const Json& value) {
  require_object(value, "request");
  ModifyRequest request;
  request.resource_type = read_string(value, "ResourceType");
  std::string type = read_string(value, "RequestType");
  auto parsed = parse_request_type(type);
  // A request HNS cannot read at all: reported like malformed JSON.
  if (!parsed) throw SchemaError(SchemaError::Kind::Type, "RequestType", "expected Add, Remove, Update or Refresh");
  request.request_type = *parsed;
  if (const Json* settings = field(value, "Settings")) request.settings = *settings;
  return request;
}

Json ModifyRequest::to_json() const {
  return Json{{"ResourceType", resource_type},
              {"RequestType", std::string(request_type_name(request_type))},
              {"Settings", settings}};
}

ModifyRequest namespace_endpoint_request(RequestType type, const Guid& endpoint) {
  return ModifyRequest{"Endpoint", type, Json{{"EndpointId", endpoint.str()}}};
}

ModifyRequest policy_request(RequestType type, const std::vector<Policy>& policies) {
  return ModifyRequest{"Policy", type, Json{{"Policies", render_policies_v2(policies)}}};
}

HostComputeQuery HostComputeQuery::from_json(const Json& value) {
  require_object(value, "query");
  HostComputeQuery query;
  query.schema_version = read_schema_version(value);
  query.flags = read_uint<std::uint32_t>(value, "Flags");
  std::string filter = read_string(value, "Filter");
  if (!filter.empty()) query.filter = parse_object(filter, "Filter");
  return query;
}

Json HostComputeQuery::to_json() const {
  Json out = {{"SchemaVersion", schema_version_json(schema_version)}};
  put_uint(out, "Flags", flags);
  if (!filter.empty()) out["Filter"] = filter.dump();
  return out;
}

}  // namespace wincni::hns
