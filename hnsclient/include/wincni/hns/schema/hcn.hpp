#pragma once
// The HCN ("API v2") objects: HostComputeNetwork, HostComputeEndpoint,
// HostComputeNamespace (docs/reference/hns-api.md §2). from_json reads keys
// case-insensitively and raises SchemaError on a field of the wrong shape;
// to_json writes HNS's spelling and leaves out empty fields.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "wincni/hns/guid.hpp"
#include "wincni/hns/schema/common.hpp"
#include "wincni/hns/schema/policy.hpp"

namespace wincni::hns {

struct Subnet {
  static constexpr std::uint32_t kDoNotReserveGatewayAddress = 1;
  cni::IpPrefix ip_address_prefix;
  std::vector<Policy> policies;  // VLAN, VSID
  std::vector<Route> routes;
  std::uint32_t flags = 0;

  // The next hop of the subnet's default route, if it has one.
  std::optional<cni::IpAddress> gateway() const;
  static Subnet from_json(const Json& value);
  Json to_json() const;
  friend bool operator==(const Subnet&, const Subnet&) = default;
};

struct Ipam {
  std::string type = "Static";  // Static | DHCP
  std::vector<Subnet> subnets;
  static Ipam from_json(const Json& value);
  Json to_json() const;
  friend bool operator==(const Ipam&, const Ipam&) = default;
};

struct MacRange {
  std::string start_mac_address;
  std::string end_mac_address;
  friend bool operator==(const MacRange&, const MacRange&) = default;
};

struct HostComputeNetwork {
  // Flags are numbers on the wire (hcsshim cannot read the string form).
  static constexpr std::uint32_t kEnableNonPersistent = 8;
  static constexpr std::uint32_t kDisableHostPort = 1024;
  static constexpr std::uint32_t kEnableIov = 8192;

  Guid id;
  std::string name;
  NetworkType type = NetworkType::NAT;  // HNS leaves Type out when it is NAT
  std::vector<Policy> policies;
  std::vector<MacRange> mac_pool;
  Dns dns;
  std::vector<Ipam> ipams;
  std::uint32_t flags = 0;
  SchemaVersion schema_version;

  // Every subnet of every IPAM block, in order.
  std::vector<const Subnet*> subnets() const;
  template <class T>
  const T* find_policy() const {
    for (const auto& policy : policies) {
      if (const T* typed = policy.as<T>()) return typed;
    }
    return nullptr;
  }

  static HostComputeNetwork from_json(const Json& value);
  Json to_json() const;
  friend bool operator==(const HostComputeNetwork&, const HostComputeNetwork&) = default;
};

struct IpConfig {
  cni::IpAddress ip_address;
  std::uint8_t prefix_length = 0;  // 0: HNS takes the subnet's
  static IpConfig from_json(const Json& value);
  Json to_json() const;
  friend bool operator==(const IpConfig&, const IpConfig&) = default;
};

struct HostComputeEndpoint {
  static constexpr std::uint32_t kRemoteEndpoint = 1;
  static constexpr std::uint32_t kDisableInterComputeCommunication = 2;

  Guid id;
  std::string name;
  Guid host_compute_network;
  // Read-only: set by HNS when the endpoint is attached to a namespace; the
  // null GUID when it is attached to none.
  Guid host_compute_namespace;
  std::vector<Policy> policies;
  std::vector<IpConfig> ip_configurations;
  Dns dns;
  std::vector<Route> routes;
  std::string mac_address;
  std::uint32_t flags = 0;
  SchemaVersion schema_version;

  template <class T>
  const T* find_policy() const {
    for (const auto& policy : policies) {
      if (const T* typed = policy.as<T>()) return typed;
    }
    return nullptr;
  }

  static HostComputeEndpoint from_json(const Json& value);
  // HostComputeNamespace is written only when set; HNS output always has it.
  Json to_json() const;
  friend bool operator==(const HostComputeEndpoint&, const HostComputeEndpoint&) = default;
};

struct NamespaceResource {
  std::string type;  // "Endpoint" | "Container"
  Guid id;           // Data.ID
  friend bool operator==(const NamespaceResource&, const NamespaceResource&) = default;
};

struct HostComputeNamespace {
  Guid id;
  std::uint32_t namespace_id = 0;  // the network compartment
  std::string type;                // Host | HostDefault | Guest | GuestDefault
  std::vector<NamespaceResource> resources;
  SchemaVersion schema_version;

  bool is_default() const;
  std::vector<Guid> endpoint_ids() const;

  static HostComputeNamespace from_json(const Json& value);
  Json to_json() const;
  friend bool operator==(const HostComputeNamespace&, const HostComputeNamespace&) = default;
};

// A load balancer (hcsshim's hcn/hcnloadbalancer.go): kube-proxy's winkernel
// proxier makes one per service and frontend.
struct LoadBalancerPortMapping {
  std::uint32_t protocol = 0;           // 6 TCP, 17 UDP
  std::uint16_t internal_port = 0;      // the pods' port
  std::uint16_t external_port = 0;      // the service's port
  std::uint32_t distribution_type = 0;  // 0 per connection, 1 per client and protocol, 2 per client
  std::uint32_t flags = 0;              // kIlb, kLocalRoutedVip, kUseMux, kPreserveDip

  static constexpr std::uint32_t kIlb = 1;
  static constexpr std::uint32_t kLocalRoutedVip = 2;
  static constexpr std::uint32_t kUseMux = 4;
  static constexpr std::uint32_t kPreserveDip = 8;
  friend bool operator==(const LoadBalancerPortMapping&, const LoadBalancerPortMapping&) = default;
};

struct HostComputeLoadBalancer {
  Guid id;
  std::vector<Guid> host_compute_endpoints;  // the backends
  std::string source_vip;
  std::vector<std::string> frontend_vips;
  std::vector<LoadBalancerPortMapping> port_mappings;
  SchemaVersion schema_version;
  std::uint32_t flags = 0;  // kDsr, kIpv6

  static constexpr std::uint32_t kDsr = 1;
  static constexpr std::uint32_t kIpv6 = 2;

  static HostComputeLoadBalancer from_json(const Json& value);
  Json to_json() const;
  friend bool operator==(const HostComputeLoadBalancer&, const HostComputeLoadBalancer&) = default;
};

// An SDN route (hcsshim's hcn/hcnroute.go, HcnCreateSdnRoute & co.): a
// route for the listed endpoints, e.g. to the cloud's metadata address.
struct SdnRouteSetting {
  std::string destination_prefix;
  std::string next_hop;
  bool need_encap = false;
  friend bool operator==(const SdnRouteSetting&, const SdnRouteSetting&) = default;
};

struct HostComputeRoute {
  Guid id;
  std::vector<Guid> host_compute_endpoints;
  std::vector<SdnRouteSetting> settings;  // "Setting" on the wire
  SchemaVersion schema_version;

  static HostComputeRoute from_json(const Json& value);
  Json to_json() const;
  friend bool operator==(const HostComputeRoute&, const HostComputeRoute&) = default;
};

// The request bodies of HcnModify* ({ResourceType, RequestType, Settings}).
enum class RequestType { Add, Remove, Update, Refresh };
std::optional<RequestType> parse_request_type(std::string_view text);
std::string_view request_type_name(RequestType type);

struct ModifyRequest {
  std::string resource_type;  // "Endpoint", "Container", "Policy", "DNS", ...
  RequestType request_type = RequestType::Add;
  Json settings = Json::object();

  static ModifyRequest from_json(const Json& value);
  Json to_json() const;
};

// {"ResourceType":"Endpoint","RequestType":"Add","Settings":{"EndpointId":"<id>"}}
ModifyRequest namespace_endpoint_request(RequestType type, const Guid& endpoint);
// {"ResourceType":"Policy","RequestType":..,"Settings":{"Policies":[...]}}
ModifyRequest policy_request(RequestType type, const std::vector<Policy>& policies);

// The HostComputeQuery passed to Enumerate and Query*Properties:
// {"SchemaVersion":{"Major":2,"Minor":0},"Flags":n,"Filter":"<json object as a string>"}.
struct HostComputeQuery {
  static constexpr std::uint32_t kDetailed = 1;
  SchemaVersion schema_version;
  std::uint32_t flags = 0;
  Json filter = Json::object();  // {"Name":"cbr0"}, {"VirtualNetwork":"<id>"}, ...

  static HostComputeQuery from_json(const Json& value);
  Json to_json() const;
  std::string str() const { return to_json().dump(); }
};

}  // namespace wincni::hns
