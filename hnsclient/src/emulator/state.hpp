#pragma once
// Everything the emulated HNS holds: one store that both API views read.
// Objects are kept in their v2 form plus what only HNS knows about them
// (the management IP, v1 attachments); the v1 view is derived.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// A compute system (a running container) as HCS knows it: the runtime
// creates it, and HNS v1 endpoints reach it by HcsModifyComputeSystem.
struct ComputeSystemRecord {
  std::string id;     // the runtime's container ID, compared ignoring case
  std::string owner;  // "docker", as the runtime names itself
  std::vector<Guid> network_adapters;  // endpoints hot-added, in order

  Json to_json() const;
  static ComputeSystemRecord from_json(const Json& value);
};

// The emulated machine: one physical adapter and its address.
struct HostSettings {
  std::string adapter_name = "Ethernet";
  cni::IpAddress management_ip = cni::IpAddress::v4(0xC0000204);  // 192.0.2.4 (TEST-NET-1)
};

struct EmulatorState {
  std::vector<NetworkRecord> networks;
  std::vector<EndpointRecord> endpoints;
  std::vector<HostComputeNamespace> namespaces;
  std::vector<ComputeSystemRecord> compute_systems;
  HostSettings host;
  // Set by `hnsctl`; WINCNI_EMULATOR_HNS_VERSION overrides it.
  std::optional<HnsVersion> hns_version;
  // Calls counted for fault injection, by operation name.
  std::map<std::string, std::uint64_t> call_counts;
  // Compartment 1 is the host's.
  std::uint32_t next_compartment = 2;

  NetworkRecord* find_network(const Guid& id);
  const NetworkRecord* find_network(const Guid& id) const;
  EndpointRecord* find_endpoint(const Guid& id);
  const EndpointRecord* find_endpoint(const Guid& id) const;
  HostComputeNamespace* find_namespace(const Guid& id);
  const HostComputeNamespace* find_namespace(const Guid& id) const;
  ComputeSystemRecord* find_compute_system(std::string_view id);

  static EmulatorState from_json(const Json& value);
  Json to_json() const;
};

}  // namespace wincni::hns::emulator
