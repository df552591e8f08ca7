#pragma once
// The HNS "API v1" objects that vmcompute's HNSCall speaks: HNSNetwork,
// HNSEndpoint, the namespace object, and the response envelope
// (docs/reference/hns-api.md §1). How one HNS store shows the same objects
// through both APIs is the emulator's (hns-emulator/src/v1_views.hpp).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "wincni/hns/guid.hpp"
#include "wincni/hns/hresult.hpp"
#include "wincni/hns/schema/common.hpp"
#include "wincni/hns/schema/hcn.hpp"
#include "wincni/hns/schema/policy.hpp"

namespace wincni::hns {

struct HnsSubnet {
  std::optional<cni::IpPrefix> address_prefix;
  std::optional<cni::IpAddress> gateway_address;
  std::vector<Policy> policies;
  friend bool operator==(const HnsSubnet&, const HnsSubnet&) = default;
};

struct HnsNetwork {
  Guid id;
  std::string name;
  NetworkType type = NetworkType::NAT;
  std::string network_adapter_name;
  std::string source_mac;
  std::vector<Policy> policies;
  std::vector<MacRange> mac_pools;
  std::vector<HnsSubnet> subnets;
  std::string dns_suffix;
  std::string dns_server_list;  // comma-separated
  std::uint32_t dns_server_compartment = 0;
  std::optional<cni::IpAddress> management_ip;  // filled in by HNS
  bool automatic_dns = false;

  static HnsNetwork from_json(const Json& value);
  Json to_json() const;
  friend bool operator==(const HnsNetwork&, const HnsNetwork&) = default;
};

enum class EndpointState : std::uint16_t {
  Uninitialized = 0,
  Created = 1,
  Attached = 2,
  AttachedSharing = 3,
  Detached = 4,
  Degraded = 5,
  Destroyed = 6,
};

struct HnsEndpoint {
  Guid id;
  std::string name;
  Guid virtual_network;
  std::string virtual_network_name;
  std::vector<Policy> policies;
  std::string mac_address;
  std::optional<cni::IpAddress> ip_address;
  std::optional<cni::IpAddress> ipv6_address;
  std::string dns_suffix;       // comma-separated search list
  std::string dns_server_list;  // comma-separated
  std::string dns_domain;
  std::optional<cni::IpAddress> gateway_address;
  std::optional<cni::IpAddress> gateway_address_v6;
  bool enable_internal_dns = false;
  bool disable_icc = false;
  bool is_remote_endpoint = false;
  bool enable_low_metric = false;
  std::uint8_t prefix_length = 0;
  std::uint8_t ipv6_prefix_length = 0;
  Guid namespace_id;  // "Namespace":{"ID":..} when attached to one
  std::uint16_t encap_overhead = 0;
  std::vector<std::string> shared_containers;
  EndpointState state = EndpointState::Uninitialized;

  static HnsEndpoint from_json(const Json& value);
  Json to_json() const;
  friend bool operator==(const HnsEndpoint&, const HnsEndpoint&) = default;
};

// The v1 view of a namespace: {ID, IsDefault, ResourceList:[{Type, Data}], CompartmentId}.
struct HnsNamespace {
  Guid id;
  bool is_default = false;
  std::vector<NamespaceResource> resource_list;
  std::uint32_t compartment_id = 0;

  static HnsNamespace from_json(const Json& value);
  Json to_json() const;
};

// {"ContainerId","SystemType":"Container"|"Host"|"VirtualMachine","CompartmentId","VirtualNicName"}
struct EndpointAttachRequest {
  std::string container_id;
  std::string system_type = "Container";
  std::uint16_t compartment_id = 0;
  std::string virtual_nic_name;

  static EndpointAttachRequest from_json(const Json& value);
  Json to_json() const;
};

// The HNSCall response envelope {"Success":bool,"Error":string,"Output":<json>}.
struct HnsEnvelope {
  bool success = false;
  std::string error;
  Json output;  // null when there is none
  // The failure's HRESULT, which HNS may give beside its text (microsoft/
  // hcsshim pull request 2800: "ErrorCode" of HNS's JSON failure response);
  // 0 when it gives none.
  HResult error_code = 0;

  static HnsEnvelope from_json(const Json& value);
  static HnsEnvelope ok(Json output);
  static HnsEnvelope failure(std::string error, HResult code = 0);
  Json to_json() const;
};

}  // namespace wincni::hns
