#include "state.hpp"

#include <algorithm>

#include "parsed_files.hpp"
#include "state_files.hpp"
#include "store_layout.hpp"
#include "wincni/cni/json_keys.hpp"
#include "wincni/hns/schema/json_io.hpp"

namespace wincni::hns::emulator {
namespace {

// The store's own format version, for future migrations.
constexpr int kFormat = 2;

Json to_json(const NetworkRecord& record) {
  Json item = {{"Network", record.network.to_json()}};
  if (record.management_ip) item["ManagementIP"] = record.management_ip->str();
  return item;
}

Json to_json(const EndpointRecord& record) {
  Json item = {{"Endpoint", record.endpoint.to_json()}};
  json_io::put_strings(item, "SharedContainers", record.shared_containers);
  json_io::put_bool(item, "HostAttached", record.host_attached);
  json_io::put_uint(item, "HostCompartment", record.host_compartment);
  return item;
}

Json to_json(const HostComputeNamespace& ns) { return Json{{"Namespace", ns.to_json()}}; }

Json to_json(const HostComputeLoadBalancer& lb) { return Json{{"LoadBalancer", lb.to_json()}}; }

Json to_json(const HostComputeRoute& route) { return Json{{"SdnRoute", route.to_json()}}; }

void read_record(const Json& item, NetworkRecord& record) {
  record.network = HostComputeNetwork::from_json(item.at("Network"));
  record.management_ip = read_address(item, "ManagementIP");
}

void read_record(const Json& item, EndpointRecord& record) {
  record.endpoint = HostComputeEndpoint::from_json(item.at("Endpoint"));
  record.shared_containers = json_io::read_strings(item, "SharedContainers");
  record.host_attached = json_io::read_bool(item, "HostAttached");
  record.host_compartment = json_io::read_uint<std::uint16_t>(item, "HostCompartment");
}

void read_record(const Json& item, HostComputeNamespace& ns) {
  ns = HostComputeNamespace::from_json(item.at("Namespace"));
}

void read_record(const Json& item, HostComputeLoadBalancer& lb) {
  lb = HostComputeLoadBalancer::from_json(item.at("LoadBalancer"));
}

void read_record(const Json& item, HostComputeRoute& route) {
  route = HostComputeRoute::from_json(item.at("SdnRoute"));
}

// An object's file: the record and its place in listings.
template <class Record>
std::string file_text(const Record& record, std::uint64_t sequence) {
  Json item = to_json(record);
  item["Sequence"] = sequence;
  return item.dump(1);
}

template <class Record>
struct ParsedRecord {
  Record record;
  std::uint64_t sequence = 0;
};

// Never destroyed: a call abandoned by its caller (a hung HNS) may still read
// the store while the process exits.
template <class Record>
ParsedFiles<ParsedRecord<Record>>& parsed_records() {
  static auto* files = new ParsedFiles<ParsedRecord<Record>>;
  return *files;
}

template <class Record>
ParsedRecord<Record> parsed_record(const std::string& path, const std::string& text) {
  return parsed_records<Record>().get(path, text, [&] {
    Json item = json_io::parse_object(text, path);
    ParsedRecord<Record> parsed;
    read_record(item, parsed.record);
    parsed.sequence = json_io::read_uint<std::uint64_t>(item, "Sequence");
    return parsed;
  });
}

ParsedFiles<StoreGlobals>& parsed_globals() {
  static auto* files = new ParsedFiles<StoreGlobals>;
  return *files;
}

template <class Record>
typename RecordCache<Record>::Loader loader_of(const std::string& directory, const char* kind_directory) {
  return [directory, kind_directory](const Guid& id) {
    CachedRecord<Record> slot;
    std::string path = directory + "/" + layout::object_file(kind_directory, id);
    auto text = read_file(path);
    if (!text) return slot;
    ParsedRecord<Record> parsed = parsed_record<Record>(path, *text);
    slot.sequence = parsed.sequence;
    slot.current = std::move(parsed.record);
    slot.stored = std::move(*text);
    return slot;
  };
}

// Adds the write or removal of each record this call changed to `commit`,
// and returns their IDs: each record is serialised once, the costliest step
// of a call on the emulator.
template <class Record>
std::vector<Guid> add_changes(CommitRecord& commit, const RecordCache<Record>& cache, const char* kind_directory) {
  std::vector<Guid> changed;
  for (const auto& [id, slot] : cache.slots()) {
    std::string path = layout::object_file(kind_directory, id);
    if (!slot->current) {
      if (!slot->stored) continue;
      commit.remove(path);
    } else {
      std::string text = file_text(*slot->current, slot->sequence);
      if (text == slot->stored) continue;
      commit.write(path, std::move(text));
    }
    changed.push_back(id);
  }
  return changed;
}

std::vector<layout::IndexEntry> stored_entries(const CachedRecord<EndpointRecord>& slot, const std::string& path) {
  if (!slot.stored) return {};
  return layout::index_entries(parsed_record<EndpointRecord>(path, *slot.stored).record);
}

}  // namespace

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

ComputeSystemRecord* EmulatorState::find_compute_system(std::string_view id) {
  auto& systems = globals_.compute_systems;
  auto it = std::find_if(systems.begin(), systems.end(),
                         [&](const ComputeSystemRecord& system) { return cni::equals_ignore_case(system.id, id); });
  return it == systems.end() ? nullptr : &*it;
}

StoreGlobals StoreGlobals::from_json(const Json& value) {
  using namespace json_io;
  StoreGlobals globals;
  const Json& host = read_object(value, "Host");
  if (field(host, "AdapterName")) globals.host.adapter_name = read_string(host, "AdapterName");
  if (auto ip = read_address(host, "ManagementIP")) globals.host.management_ip = *ip;
  if (field(value, "HnsVersion")) {
    const Json& version = read_object(value, "HnsVersion");
    globals.hns_version =
        HnsVersion{read_uint<std::uint16_t>(version, "Major"), read_uint<std::uint16_t>(version, "Minor")};
  }
  for (const auto& [name, count] : read_object(value, "CallCounts").items()) {
    globals.call_counts[name] = count.get<std::uint64_t>();
  }
  if (field(value, "NextCompartment")) globals.next_compartment = read_uint<std::uint32_t>(value, "NextCompartment");
  if (field(value, "NextSequence")) globals.next_sequence = read_uint<std::uint64_t>(value, "NextSequence");
  for (const auto& item : read_array(value, "ComputeSystems")) {
    globals.compute_systems.push_back(ComputeSystemRecord::from_json(item));
  }
  return globals;
}

Json StoreGlobals::to_json() const {
  Json out = {{"Format", kFormat}};
  out["Host"] = {{"AdapterName", host.adapter_name}, {"ManagementIP", host.management_ip.str()}};
  if (hns_version) out["HnsVersion"] = {{"Major", hns_version->major}, {"Minor", hns_version->minor}};
  if (!call_counts.empty()) out["CallCounts"] = call_counts;
  out["NextCompartment"] = next_compartment;
  out["NextSequence"] = next_sequence;
  if (!compute_systems.empty()) {
    Json system_items = Json::array();
    for (const auto& system : compute_systems) system_items.push_back(system.to_json());
    out["ComputeSystems"] = std::move(system_items);
  }
  return out;
}

EmulatorState::EmulatorState(std::string directory)
    : directory_(std::move(directory)),
      networks_(loader_of<NetworkRecord>(directory_, layout::kNetworks)),
      endpoints_(loader_of<EndpointRecord>(directory_, layout::kEndpoints)),
      namespaces_(loader_of<HostComputeNamespace>(directory_, layout::kNamespaces)),
      load_balancers_(loader_of<HostComputeLoadBalancer>(directory_, layout::kLoadBalancers)),
      sdn_routes_(loader_of<HostComputeRoute>(directory_, layout::kSdnRoutes)) {
  std::string path = directory_ + "/" + layout::kGlobalsFile;
  if (auto text = read_file(path); text && !text->empty()) {
    globals_ =
        parsed_globals().get(path, *text, [&] { return StoreGlobals::from_json(json_io::parse_object(*text, path)); });
    stored_globals_ = std::move(*text);
  }
}

NetworkRecord& EmulatorState::add_network(NetworkRecord record) {
  Guid id = record.network.id;
  return networks_.add(id, std::move(record), globals_.next_sequence++);
}

EndpointRecord& EmulatorState::add_endpoint(EndpointRecord record) {
  Guid id = record.endpoint.id;
  return endpoints_.add(id, std::move(record), globals_.next_sequence++);
}

HostComputeNamespace& EmulatorState::add_namespace(HostComputeNamespace ns, bool first) {
  Guid id = ns.id;
  return namespaces_.add(id, std::move(ns), first ? 0 : globals_.next_sequence++);
}

HostComputeLoadBalancer& EmulatorState::add_load_balancer(HostComputeLoadBalancer lb) {
  Guid id = lb.id;
  return load_balancers_.add(id, std::move(lb), globals_.next_sequence++);
}

HostComputeRoute& EmulatorState::add_sdn_route(HostComputeRoute route) {
  Guid id = route.id;
  return sdn_routes_.add(id, std::move(route), globals_.next_sequence++);
}

std::vector<Guid> EmulatorState::stored_ids(const char* kind_directory) const {
  std::vector<Guid> ids;
  for (const auto& name : list_directory(directory_ + "/" + kind_directory)) {
    if (auto id = layout::object_id(name)) ids.push_back(*id);
  }
  return ids;
}

template <class Record>
std::vector<Record*> all_of(RecordCache<Record>& cache, std::vector<Guid> stored) {
  std::vector<Guid> seen = cache.seen();
  stored.insert(stored.end(), seen.begin(), seen.end());
  return cache.present(std::move(stored));
}

std::vector<NetworkRecord*> EmulatorState::networks() { return all_of(networks_, stored_ids(layout::kNetworks)); }
std::vector<EndpointRecord*> EmulatorState::endpoints() { return all_of(endpoints_, stored_ids(layout::kEndpoints)); }
std::vector<HostComputeNamespace*> EmulatorState::namespaces() {
  return all_of(namespaces_, stored_ids(layout::kNamespaces));
}
std::vector<HostComputeLoadBalancer*> EmulatorState::load_balancers() {
  return all_of(load_balancers_, stored_ids(layout::kLoadBalancers));
}
std::vector<HostComputeRoute*> EmulatorState::sdn_routes() {
  return all_of(sdn_routes_, stored_ids(layout::kSdnRoutes));
}

std::vector<std::pair<std::string, std::string>> EmulatorState::index_keys(const std::string& index_directory) {
  // The directory holds the entries of the endpoints as stored; the
  // endpoints this call read or changed answer for themselves.
  const std::set<std::string> seen = seen_endpoints();
  std::vector<std::pair<std::string, std::string>> keys;
  const std::string index = directory_ + "/" + index_directory;
  for (const auto& key : list_directory(index)) {
    for (auto& owner : list_directory(index + "/" + key)) {
      if (!seen.count(owner)) keys.emplace_back(key, std::move(owner));
    }
  }
  for (const auto& [id, slot] : endpoints_.slots()) {
    if (!slot->current) continue;
    for (auto& entry : layout::index_entries(*slot->current)) {
      if (entry.directory == index_directory) keys.emplace_back(std::move(entry.key), id.str());
    }
  }
  return keys;
}

std::set<std::string> EmulatorState::seen_endpoints() const {
  std::set<std::string> seen;
  for (const Guid& id : endpoints_.seen()) seen.insert(id.str());
  return seen;
}

bool EmulatorState::key_taken(const std::string& index_directory, const std::string& key, const std::string& ignoring) {
  const std::set<std::string> seen = seen_endpoints();
  for (const auto& owner : list_directory(directory_ + "/" + index_directory + "/" + key)) {
    if (owner != ignoring && !seen.count(owner)) return true;
  }
  for (const auto& [id, slot] : endpoints_.slots()) {
    if (!slot->current || id.str() == ignoring) continue;
    for (const auto& entry : layout::index_entries(*slot->current)) {
      if (entry.directory == index_directory && entry.key == key) return true;
    }
  }
  return false;
}

std::vector<EndpointRecord*> EmulatorState::endpoints_indexed_in(const std::string& index_directory) {
  std::vector<Guid> ids;
  for (const auto& [key, owner] : index_keys(index_directory)) {
    if (auto id = Guid::parse(owner)) ids.push_back(*id);
  }
  return endpoints_.present(std::move(ids));
}

std::vector<EndpointRecord*> EmulatorState::endpoints_on_network(const Guid& network) {
  std::vector<EndpointRecord*> found = endpoints_indexed_in(layout::members_index(network));
  std::erase_if(found, [&](const EndpointRecord* record) { return record->endpoint.host_compute_network != network; });
  return found;
}

std::vector<EndpointRecord*> EmulatorState::endpoints_maybe_named(const std::string& name) {
  return endpoints_indexed_in(layout::names_index(name));
}

AddressesInUse EmulatorState::addresses_in_use(const Guid& network, const Guid& ignoring) {
  return AddressesInUse([this, index = layout::addresses_index(network),
                         ignored = ignoring.str()](const std::string& key) { return key_taken(index, key, ignored); });
}

bool EmulatorState::mac_in_use(std::uint64_t mac) { return key_taken(layout::macs_index(), layout::mac_key(mac), {}); }

std::set<std::string> EmulatorState::port_mappings_in_use(const Guid& network, const Guid& ignoring) {
  const std::string ignored = ignoring.str();
  std::set<std::string> used;
  for (auto& [key, owner] : index_keys(layout::ports_index(network))) {
    if (owner != ignored) used.insert(std::move(key));
  }
  return used;
}

CommitRecord EmulatorState::changes() const {
  CommitRecord commit;
  add_changes(commit, networks_, layout::kNetworks);
  const std::vector<Guid> changed_endpoints = add_changes(commit, endpoints_, layout::kEndpoints);
  add_changes(commit, namespaces_, layout::kNamespaces);
  add_changes(commit, load_balancers_, layout::kLoadBalancers);
  add_changes(commit, sdn_routes_, layout::kSdnRoutes);
  for (const Guid& id : changed_endpoints) {
    const auto& slot = endpoints_.slots().at(id);
    std::vector<layout::IndexEntry> before =
        stored_entries(*slot, directory_ + "/" + layout::object_file(layout::kEndpoints, id));
    std::vector<layout::IndexEntry> after =
        slot->current ? layout::index_entries(*slot->current) : std::vector<layout::IndexEntry>{};
    std::vector<layout::IndexEntry> gone;
    std::vector<layout::IndexEntry> added;
    std::set_difference(before.begin(), before.end(), after.begin(), after.end(), std::back_inserter(gone));
    std::set_difference(after.begin(), after.end(), before.begin(), before.end(), std::back_inserter(added));
    for (const auto& entry : gone) commit.remove(entry.file());
    for (const auto& entry : added) commit.create_empty(entry.file());
  }
  std::string globals = globals_.to_json().dump(1);
  if (globals != stored_globals_) commit.write(layout::kGlobalsFile, std::move(globals));
  return commit;
}

}  // namespace wincni::hns::emulator
