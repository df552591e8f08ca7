#include "state.hpp"

#include <algorithm>

#include "wincni/cni/json_keys.hpp"
#include "wincni/hns/schema/json_io.hpp"

namespace wincni::hns::emulator {
namespace {

template <class Records, class IdOf>
auto* find_by_id(Records& records, const Guid& id, IdOf id_of) {
  auto it = std::find_if(records.begin(), records.end(), [&](auto& record) { return id_of(record) == id; });
  return it == records.end() ? nullptr : &*it;
}

const Guid& network_id(const NetworkRecord& record) { return record.network.id; }
const Guid& endpoint_id(const EndpointRecord& record) { return record.endpoint.id; }
const Guid& namespace_id(const HostComputeNamespace& ns) { return ns.id; }

// The state file's own format version, for future migrations.
constexpr int kFormat = 1;

}  // namespace

NetworkRecord* EmulatorState::find_network(const Guid& id) { return find_by_id(networks, id, network_id); }
const NetworkRecord* EmulatorState::find_network(const Guid& id) const { return find_by_id(networks, id, network_id); }
EndpointRecord* EmulatorState::find_endpoint(const Guid& id) { return find_by_id(endpoints, id, endpoint_id); }
const EndpointRecord* EmulatorState::find_endpoint(const Guid& id) const {
  return find_by_id(endpoints, id, endpoint_id);
}
HostComputeNamespace* EmulatorState::find_namespace(const Guid& id) { return find_by_id(namespaces, id, namespace_id); }
const HostComputeNamespace* EmulatorState::find_namespace(const Guid& id) const {
  return find_by_id(namespaces, id, namespace_id);
}

ComputeSystemRecord* EmulatorState::find_compute_system(std::string_view id) {
  auto it = std::find_if(compute_systems.begin(), compute_systems.end(),
                         [&](const ComputeSystemRecord& system) { return cni::equals_ignore_case(system.id, id); });
  return it == compute_systems.end() ? nullptr : &*it;
}

Json ComputeSystemRecord::to_json() const {
  Json adapters = Json::array();
  for (const Guid& endpoint : network_adapters) adapters.push_back(endpoint.str());
  return Json{{"Id", id}, {"Owner", owner}, {"NetworkAdapters", std::move(adapters)}};
}

ComputeSystemRecord ComputeSystemRecord::from_json(const Json& value) {
  using namespace json_io;
  ComputeSystemRecord record;
  record.id = read_string(value, "Id");
  record.owner = read_string(value, "Owner");
  for (const std::string& endpoint : read_strings(value, "NetworkAdapters")) {
    if (auto id = Guid::parse(endpoint)) record.network_adapters.push_back(*id);
  }
  return record;
}

EmulatorState EmulatorState::from_json(const Json& value) {
  using namespace json_io;
  EmulatorState state;
  for (const auto& item : read_array(value, "Networks")) {
    NetworkRecord record{HostComputeNetwork::from_json(item.at("Network")), read_address(item, "ManagementIP")};
    state.networks.push_back(std::move(record));
  }
  for (const auto& item : read_array(value, "Endpoints")) {
    EndpointRecord record;
    record.endpoint = HostComputeEndpoint::from_json(item.at("Endpoint"));
    record.shared_containers = read_strings(item, "SharedContainers");
    record.host_attached = read_bool(item, "HostAttached");
    record.host_compartment = read_uint<std::uint16_t>(item, "HostCompartment");
    state.endpoints.push_back(std::move(record));
  }
  for (const auto& item : read_array(value, "Namespaces")) state.namespaces.push_back(HostComputeNamespace::from_json(item));
  for (const auto& item : read_array(value, "ComputeSystems")) {
    state.compute_systems.push_back(ComputeSystemRecord::from_json(item));
  }
  const Json& host = read_object(value, "Host");
  if (field(host, "AdapterName")) state.host.adapter_name = read_string(host, "AdapterName");
  if (auto ip = read_address(host, "ManagementIP")) state.host.management_ip = *ip;
  if (field(value, "HnsVersion")) {
    const Json& version = read_object(value, "HnsVersion");
    state.hns_version = HnsVersion{read_uint<std::uint16_t>(version, "Major"), read_uint<std::uint16_t>(version, "Minor")};
  }
  for (const auto& [name, count] : read_object(value, "CallCounts").items()) {
    state.call_counts[name] = count.get<std::uint64_t>();
  }
  if (field(value, "NextCompartment")) state.next_compartment = read_uint<std::uint32_t>(value, "NextCompartment");
  return state;
}

Json EmulatorState::to_json() const {
  Json out = {{"Format", kFormat}};
  Json network_items = Json::array();
  for (const auto& record : networks) {
    Json item = {{"Network", record.network.to_json()}};
    if (record.management_ip) item["ManagementIP"] = record.management_ip->str();
    network_items.push_back(std::move(item));
  }
  out["Networks"] = std::move(network_items);
  Json endpoint_items = Json::array();
  for (const auto& record : endpoints) {
    Json item = {{"Endpoint", record.endpoint.to_json()}};
    json_io::put_strings(item, "SharedContainers", record.shared_containers);
    json_io::put_bool(item, "HostAttached", record.host_attached);
    json_io::put_uint(item, "HostCompartment", record.host_compartment);
    endpoint_items.push_back(std::move(item));
  }
  out["Endpoints"] = std::move(endpoint_items);
  Json namespace_items = Json::array();
  for (const auto& ns : namespaces) namespace_items.push_back(ns.to_json());
  out["Namespaces"] = std::move(namespace_items);
  if (!compute_systems.empty()) {
    Json system_items = Json::array();
    for (const auto& system : compute_systems) system_items.push_back(system.to_json());
    out["ComputeSystems"] = std::move(system_items);
  }
  out["Host"] = {{"AdapterName", host.adapter_name}, {"ManagementIP", host.management_ip.str()}};
  if (hns_version) out["HnsVersion"] = {{"Major", hns_version->major}, {"Minor", hns_version->minor}};
  if (!call_counts.empty()) out["CallCounts"] = call_counts;
  out["NextCompartment"] = next_compartment;
  return out;
}

}  // namespace wincni::hns::emulator
