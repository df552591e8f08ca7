#pragma once
// Everything the emulated HNS holds, as one call sees it. Objects are kept in
// their v2 form plus what only HNS knows about them (the management IP, v1
// attachments); the v1 view is derived.
//
// The state reads lazily from the store directory (state_store.hpp): an
// object when it is first asked for by ID, a listing's objects when listed,
// and the questions IPAM, the MAC pool, port-mapping checks and filters ask
// from the index, without reading objects. What the call changes stays in
// memory until changes() hands it to the store to commit.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "addresses_in_use.hpp"
#include "commit_record.hpp"
#include "record_cache.hpp"
#include "wincni/cni/ip.hpp"
#include "wincni/hns/features.hpp"
#include "wincni/hns/schema/hcn.hpp"

namespace wincni::hns::emulator {

struct NetworkRecord {
  HostComputeNetwork network;
  // The host adapter's address, for networks bound to the adapter.
  std::optional<cni::IpAddress> management_ip;
};

struct EndpointRecord {
  HostComputeEndpoint endpoint;
  // v1 attachments: containers (HNS "SharedContainers") and the host.
  std::vector<std::string> shared_containers;
  bool host_attached = false;
  std::uint16_t host_compartment = 0;

  bool attached() const {
    return host_attached || !shared_containers.empty() || !endpoint.host_compute_namespace.is_null();
  }
};

// The emulated machine: one physical adapter and its address.
struct HostSettings {
  std::string adapter_name = "Ethernet";
  cni::IpAddress management_ip = cni::IpAddress::v4(0xC0000204);  // 192.0.2.4 (TEST-NET-1)
};

// A compute system (a running container) as HCS knows it: the runtime
// creates it, and HNS v1 endpoints reach it by HcsModifyComputeSystem.
struct ComputeSystemRecord {
  std::string id;                      // the runtime's container ID, compared ignoring case
  std::string owner;                   // "docker", as the runtime names itself
  std::vector<Guid> network_adapters;  // endpoints hot-added, in order

  Json to_json() const;
  static ComputeSystemRecord from_json(const Json& value);
};

// What is not an object: small, read on every call. The running containers
// are here too: a node runs a few hundred at most, where it may hold
// thousands of endpoints.
struct StoreGlobals {
  HostSettings host;
  // Set by `hnsctl`; WINCNI_EMULATOR_HNS_VERSION overrides it.
  std::optional<HnsVersion> hns_version;
  // Calls counted for fault injection, by operation name.
  std::map<std::string, std::uint64_t> call_counts;
  // Compartment 1 is the host's.
  std::uint32_t next_compartment = 2;
  // Creation order of objects, which listings keep.
  std::uint64_t next_sequence = 1;
  std::vector<ComputeSystemRecord> compute_systems;

  static StoreGlobals from_json(const Json& value);
  Json to_json() const;
};

class EmulatorState {
 public:
  // Reads from `directory` (under the caller's lock) as it is asked.
  explicit EmulatorState(std::string directory);

  StoreGlobals& globals() { return globals_; }
  HostSettings& host() { return globals_.host; }

  NetworkRecord* find_network(const Guid& id) { return networks_.find(id); }
  EndpointRecord* find_endpoint(const Guid& id) { return endpoints_.find(id); }
  HostComputeNamespace* find_namespace(const Guid& id) { return namespaces_.find(id); }
  HostComputeLoadBalancer* find_load_balancer(const Guid& id) { return load_balancers_.find(id); }
  HostComputeRoute* find_sdn_route(const Guid& id) { return sdn_routes_.find(id); }
  ComputeSystemRecord* find_compute_system(std::string_view id);
  std::vector<ComputeSystemRecord>& compute_systems() { return globals_.compute_systems; }

  NetworkRecord& add_network(NetworkRecord record);
  EndpointRecord& add_endpoint(EndpointRecord record);
  // `first`: listed before every other namespace (the host's default one).
  HostComputeNamespace& add_namespace(HostComputeNamespace ns, bool first = false);
  void erase_network(const Guid& id) { networks_.erase(id); }
  void erase_endpoint(const Guid& id) { endpoints_.erase(id); }
  void erase_namespace(const Guid& id) { namespaces_.erase(id); }
  HostComputeLoadBalancer& add_load_balancer(HostComputeLoadBalancer lb);
  void erase_load_balancer(const Guid& id) { load_balancers_.erase(id); }
  HostComputeRoute& add_sdn_route(HostComputeRoute route);
  void erase_sdn_route(const Guid& id) { sdn_routes_.erase(id); }

  // Every object of a kind, oldest first: each one read.
  std::vector<NetworkRecord*> networks();
  std::vector<EndpointRecord*> endpoints();
  std::vector<HostComputeNamespace*> namespaces();
  std::vector<HostComputeLoadBalancer*> load_balancers();
  std::vector<HostComputeRoute*> sdn_routes();

  // From the index, reading only the endpoints found.
  std::vector<EndpointRecord*> endpoints_on_network(const Guid& network);
  // A superset of the endpoints named `name`: compare names to be sure.
  std::vector<EndpointRecord*> endpoints_maybe_named(const std::string& name);
  // From the index alone.
  AddressesInUse addresses_in_use(const Guid& network, const Guid& ignoring);
  bool mac_in_use(std::uint64_t mac);
  // Keys (store_layout.hpp port_mapping_key) of the port mappings of the
  // network's endpoints other than `ignoring`.
  std::set<std::string> port_mappings_in_use(const Guid& network, const Guid& ignoring);

  // What this call changed, as files to write and remove.
  CommitRecord changes() const;

 private:
  std::vector<Guid> stored_ids(const char* kind_directory) const;
  // The index's entries in `index_directory` as this call has left them:
  // each key with its endpoint's ID as text (parsing thousands of IDs costs
  // more than the listing).
  std::vector<std::pair<std::string, std::string>> index_keys(const std::string& index_directory);
  // Whether an endpoint other than `ignoring` holds `key`, likewise.
  bool key_taken(const std::string& index_directory, const std::string& key, const std::string& ignoring);
  std::set<std::string> seen_endpoints() const;
  std::vector<EndpointRecord*> endpoints_indexed_in(const std::string& index_directory);

  std::string directory_;
  StoreGlobals globals_;
  std::string stored_globals_;
  RecordCache<NetworkRecord> networks_;
  RecordCache<EndpointRecord> endpoints_;
  RecordCache<HostComputeNamespace> namespaces_;
  RecordCache<HostComputeLoadBalancer> load_balancers_;
  RecordCache<HostComputeRoute> sdn_routes_;
};

}  // namespace wincni::hns::emulator
