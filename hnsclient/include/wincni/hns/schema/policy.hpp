#pragma once
// HNS policies as one typed model that renders to either API:
//   v2 (HCN):  {"Type":"OutBoundNAT","Settings":{"Exceptions":["10.0.0.0/8"]}}
//   v1 (HNS):  {"Type":"OutBoundNAT","ExceptionList":["10.0.0.0/8"]}
// Each policy struct lists its fields once, with the name each API uses
// (nullptr: the API has no such field), through visit(); the readers and
// writers in policy.cpp walk that list. Types this model does not spell out
// travel as OtherPolicy with their settings untouched.

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "wincni/hns/features.hpp"

namespace wincni::hns {

enum PolicyScope : unsigned {
  kEndpointScope = 1,
  kNetworkScope = 2,
  kSubnetScope = 4,  // v2 subnet policies; v1 carries them on the network
};

// IP protocol number. v2 writes it as a number; v1 ("NAT" policies) as a
// string, "tcp"/"udp" or the decimal number.
struct IpProtocol {
  std::uint32_t number = 0;
  friend bool operator==(const IpProtocol&, const IpProtocol&) = default;
};
// "tcp", "UDP", "6", "icmpv4", ... as the CNI plugins accept them; false on
// anything else.
bool parse_ip_protocol(std::string_view text, IpProtocol& out);
// "tcp", "udp", ... for the protocols parse_ip_protocol names; else the
// decimal number (as HNS v1 writes a protocol).
std::string ip_protocol_name(std::uint32_t number);

struct OutboundNatPolicy {
  static constexpr const char* kV2Type = "OutBoundNAT";
  static constexpr const char* kV1Type = "OutBoundNAT";
  static constexpr unsigned kScopes = kEndpointScope;
  std::string virtual_ip;
  std::vector<std::string> exceptions;    // CIDRs or addresses not NATed
  std::vector<std::string> destinations;  // loopback DSR
  std::uint32_t flags = 0;
  std::uint32_t max_port_pool_usage = 0;
  template <class V>
  void visit(V& v) {
    v("VirtualIP", "VIP", virtual_ip);
    v("Exceptions", "ExceptionList", exceptions);
    v("Destinations", "Destinations", destinations);
    v("Flags", nullptr, flags);
    v("MaxPortPoolUsage", "MaxPortPoolUsage", max_port_pool_usage);
  }
  std::string problem() const;
  friend bool operator==(const OutboundNatPolicy&, const OutboundNatPolicy&) = default;
};

struct PortMappingPolicy {
  static constexpr const char* kV2Type = "PortMapping";
  static constexpr const char* kV1Type = "NAT";
  static constexpr unsigned kScopes = kEndpointScope;
  // NatFlags (v2): LocalRoutedVip 1, IPv6 2.
  static constexpr std::uint32_t kLocalRoutedVip = 1;
  static constexpr std::uint32_t kIpv6 = 2;
  IpProtocol protocol;
  std::uint16_t internal_port = 0;
  std::uint16_t external_port = 0;
  std::string vip;
  std::uint32_t flags = 0;
  bool external_port_reserved = false;
  template <class V>
  void visit(V& v) {
    v("Protocol", "Protocol", protocol);
    v("InternalPort", "InternalPort", internal_port);
    v("ExternalPort", "ExternalPort", external_port);
    v("VIP", nullptr, vip);
    v("Flags", nullptr, flags);
    v(nullptr, "ExternalPortReserved", external_port_reserved);
  }
  std::string problem() const;
  friend bool operator==(const PortMappingPolicy&, const PortMappingPolicy&) = default;
};

struct AclPolicy {
  static constexpr const char* kV2Type = "ACL";
  static constexpr const char* kV1Type = "ACL";
  static constexpr unsigned kScopes = kEndpointScope;
  std::string id;
  std::string protocols;
  std::string action;     // Allow | Block | Pass
  std::string direction;  // In | Out
  std::string local_addresses;
  std::string remote_addresses;
  std::string local_ports;
  std::string remote_ports;
  std::string rule_type;  // Host | Switch
  std::uint16_t priority = 0;
  template <class V>
  void visit(V& v) {
    v("Id", "Id", id);
    v("Protocols", "Protocols", protocols);
    v("Action", "Action", action);
    v("Direction", "Direction", direction);
    v("LocalAddresses", "LocalAddresses", local_addresses);
    v("RemoteAddresses", "RemoteAddresses", remote_addresses);
    v("LocalPorts", "LocalPorts", local_ports);
    v("RemotePorts", "RemotePorts", remote_ports);
    v("RuleType", "RuleType", rule_type);
    v("Priority", "Priority", priority);
  }
  std::string problem() const;
  friend bool operator==(const AclPolicy&, const AclPolicy&) = default;
};

struct QosPolicy {
  static constexpr const char* kV2Type = "QOS";
  static constexpr const char* kV1Type = "QOS";
  static constexpr unsigned kScopes = kEndpointScope;
  std::uint64_t maximum_outgoing_bandwidth_in_bytes = 0;
  template <class V>
  void visit(V& v) {
    v("MaximumOutgoingBandwidthInBytes", "MaximumOutgoingBandwidthInBytes", maximum_outgoing_bandwidth_in_bytes);
  }
  std::string problem() const { return {}; }
  friend bool operator==(const QosPolicy&, const QosPolicy&) = default;
};

// An encapsulated (or plain) route; "ROUTE" in v1.
struct SdnRoutePolicy {
  static constexpr const char* kV2Type = "SDNRoute";
  static constexpr const char* kV1Type = "ROUTE";
  static constexpr unsigned kScopes = kEndpointScope;
  std::string destination_prefix;
  std::string next_hop;
  bool need_encap = false;
  template <class V>
  void visit(V& v) {
    v("DestinationPrefix", "DestinationPrefix", destination_prefix);
    v("NextHop", "NextHop", next_hop);
    v("NeedEncap", "NeedEncap", need_encap);
  }
  std::string problem() const;
  friend bool operator==(const SdnRoutePolicy&, const SdnRoutePolicy&) = default;
};

// The host's address on the underlay; "PA" in v1.
struct ProviderAddressPolicy {
  static constexpr const char* kV2Type = "ProviderAddress";
  static constexpr const char* kV1Type = "PA";
  static constexpr unsigned kScopes = kEndpointScope | kNetworkScope;
  std::string provider_address;
  template <class V>
  void visit(V& v) {
    v("ProviderAddress", "PA", provider_address);
  }
  std::string problem() const;
  friend bool operator==(const ProviderAddressPolicy&, const ProviderAddressPolicy&) = default;
};

struct EncapOverheadPolicy {
  static constexpr const char* kV2Type = "EncapOverhead";
  static constexpr const char* kV1Type = nullptr;
  static constexpr unsigned kScopes = kEndpointScope;
  std::uint16_t overhead = 0;
  template <class V>
  void visit(V& v) {
    v("Overhead", "Overhead", overhead);
  }
  std::string problem() const { return {}; }
  friend bool operator==(const EncapOverheadPolicy&, const EncapOverheadPolicy&) = default;
};

// "PROXY" in v1.
struct L4ProxyPolicy {
  static constexpr const char* kV2Type = "L4Proxy";
  static constexpr const char* kV1Type = "PROXY";
  static constexpr unsigned kScopes = kEndpointScope | kNetworkScope;
  std::string ip;
  std::string port;
  IpProtocol protocol;
  std::vector<std::string> exceptions;
  std::string destination;
  bool outbound_nat = false;
  template <class V>
  void visit(V& v) {
    v("IP", "IP", ip);
    v("Port", "Port", port);
    v("Protocol", nullptr, protocol);
    v("Exceptions", "ExceptionList", exceptions);
    v("Destination", "Destination", destination);
    v("OutboundNAT", "OutboundNat", outbound_nat);
  }
  std::string problem() const;
  friend bool operator==(const L4ProxyPolicy&, const L4ProxyPolicy&) = default;
};

// Network policies. v1 carries the first two as plain network fields
// (SourceMac, NetworkAdapterName); the schema conversion moves them.
struct SourceMacAddressPolicy {
  static constexpr const char* kV2Type = "SourceMacAddress";
  static constexpr const char* kV1Type = nullptr;
  static constexpr unsigned kScopes = kNetworkScope;
  std::string source_mac_address;
  template <class V>
  void visit(V& v) {
    v("SourceMacAddress", "SourceMacAddress", source_mac_address);
  }
  std::string problem() const;
  friend bool operator==(const SourceMacAddressPolicy&, const SourceMacAddressPolicy&) = default;
};

struct NetAdapterNamePolicy {
  static constexpr const char* kV2Type = "NetAdapterName";
  static constexpr const char* kV1Type = nullptr;
  static constexpr unsigned kScopes = kNetworkScope;
  std::string network_adapter_name;
  template <class V>
  void visit(V& v) {
    v("NetworkAdapterName", "NetworkAdapterName", network_adapter_name);
  }
  std::string problem() const;
  friend bool operator==(const NetAdapterNamePolicy&, const NetAdapterNamePolicy&) = default;
};

// The distributed router's MAC of an Overlay network (HNS assigns it).
struct DrMacAddressPolicy {
  static constexpr const char* kV2Type = "DrMacAddress";
  static constexpr const char* kV1Type = nullptr;
  static constexpr unsigned kScopes = kNetworkScope;
  std::string address;
  template <class V>
  void visit(V& v) {
    v("Address", "Address", address);
  }
  std::string problem() const;
  friend bool operator==(const DrMacAddressPolicy&, const DrMacAddressPolicy&) = default;
};

struct AutomaticDnsPolicy {
  static constexpr const char* kV2Type = "AutomaticDNS";
  static constexpr const char* kV1Type = nullptr;
  static constexpr unsigned kScopes = kNetworkScope;
  bool enable = false;
  template <class V>
  void visit(V& v) {
    v("Enable", "Enable", enable);
  }
  std::string problem() const { return {}; }
  friend bool operator==(const AutomaticDnsPolicy&, const AutomaticDnsPolicy&) = default;
};

struct RemoteSubnetRoutePolicy {
  static constexpr const char* kV2Type = "RemoteSubnetRoute";
  static constexpr const char* kV1Type = nullptr;
  static constexpr unsigned kScopes = kNetworkScope;
  std::string destination_prefix;
  std::uint16_t isolation_id = 0;
  std::string provider_address;
  std::string distributed_router_mac_address;
  template <class V>
  void visit(V& v) {
    v("DestinationPrefix", "DestinationPrefix", destination_prefix);
    v("IsolationId", "IsolationId", isolation_id);
    v("ProviderAddress", "ProviderAddress", provider_address);
    v("DistributedRouterMacAddress", "DistributedRouterMacAddress", distributed_router_mac_address);
  }
  std::string problem() const;
  friend bool operator==(const RemoteSubnetRoutePolicy&, const RemoteSubnetRoutePolicy&) = default;
};

struct VxlanPortPolicy {
  static constexpr const char* kV2Type = "VxlanPort";
  static constexpr const char* kV1Type = nullptr;
  static constexpr unsigned kScopes = kNetworkScope;
  std::uint16_t port = 0;
  template <class V>
  void visit(V& v) {
    v("Port", "Port", port);
  }
  std::string problem() const;
  friend bool operator==(const VxlanPortPolicy&, const VxlanPortPolicy&) = default;
};

// Host-to-local-pod routing on Overlay networks; no settings.
struct HostRoutePolicy {
  static constexpr const char* kV2Type = "HostRoute";
  static constexpr const char* kV1Type = nullptr;
  static constexpr unsigned kScopes = kNetworkScope;
  template <class V>
  void visit(V&) {}
  std::string problem() const { return {}; }
  friend bool operator==(const HostRoutePolicy&, const HostRoutePolicy&) = default;
};

// Subnet isolation. v2: a subnet policy {"IsolationId":n}; v1: a network
// policy {"Type":"VSID","VSID":n}.
struct VlanPolicy {
  static constexpr const char* kV2Type = "VLAN";
  static constexpr const char* kV1Type = "VLAN";
  static constexpr unsigned kScopes = kSubnetScope;
  std::uint32_t isolation_id = 0;
  template <class V>
  void visit(V& v) {
    v("IsolationId", "VLAN", isolation_id);
  }
  std::string problem() const;
  friend bool operator==(const VlanPolicy&, const VlanPolicy&) = default;
};

struct VsidPolicy {
  static constexpr const char* kV2Type = "VSID";
  static constexpr const char* kV1Type = "VSID";
  static constexpr unsigned kScopes = kSubnetScope;
  // Windows overlay networks take VSIDs from 4096 up (flanneld enforces the
  // same lower bound on its VNI) to the 24-bit VXLAN maximum.
  static constexpr std::uint32_t kMinimum = 4096;
  static constexpr std::uint32_t kMaximum = 0xFFFFFF;
  std::uint32_t isolation_id = 0;
  template <class V>
  void visit(V& v) {
    v("IsolationId", "VSID", isolation_id);
  }
  std::string problem() const;
  friend bool operator==(const VsidPolicy&, const VsidPolicy&) = default;
};

// Any other policy: one HNS knows but this model does not spell out (known),
// or a type nobody knows (HNS rejects those with HCN_E_INVALID_POLICY_TYPE).
struct OtherPolicy {
  std::string type;
  nlohmann::json settings = nlohmann::json::object();
  bool known = false;
  unsigned scopes = kEndpointScope | kNetworkScope | kSubnetScope;
  friend bool operator==(const OtherPolicy&, const OtherPolicy&) = default;
};

using PolicySettings =
    std::variant<OutboundNatPolicy, PortMappingPolicy, AclPolicy, QosPolicy, SdnRoutePolicy, ProviderAddressPolicy,
                 EncapOverheadPolicy, L4ProxyPolicy, SourceMacAddressPolicy, NetAdapterNamePolicy, DrMacAddressPolicy,
                 AutomaticDnsPolicy, RemoteSubnetRoutePolicy, VxlanPortPolicy, HostRoutePolicy, VlanPolicy, VsidPolicy,
                 OtherPolicy>;

struct Policy {
  PolicySettings settings;

  // The v2 type name ("OutBoundNAT", "PortMapping", ...).
  std::string type() const;
  // Which objects may carry it (PolicyScope bits).
  unsigned scopes() const;
  // False for a type HNS does not know.
  bool known() const;
  // Why the settings cannot work ("" when they can): an address that does not
  // parse, a protocol HNS cannot map, ...
  std::string problem() const;
  // The HNS feature the type needs, if any (VxlanPort, L4Proxy, ...).
  std::optional<Feature> required_feature() const;

  template <class T>
  const T* as() const {
    return std::get_if<T>(&settings);
  }
  template <class T>
  T* as() {
    return std::get_if<T>(&settings);
  }

  friend bool operator==(const Policy&, const Policy&) = default;
};

// Readers throw SchemaError for settings of the wrong shape; an unknown type
// is not an error here (it comes back as an OtherPolicy with known=false).
Policy parse_policy_v2(const nlohmann::json& value);
Policy parse_policy_v1(const nlohmann::json& value);
// Either shape: a "Settings" object means v2, otherwise v1. Type names of
// both APIs are accepted ("NAT" and "PortMapping").
Policy parse_policy_any(const nlohmann::json& value);

nlohmann::json render_v2(const Policy& policy);
nlohmann::json render_v1(const Policy& policy);

std::vector<Policy> parse_policies_v2(const nlohmann::json& array);
std::vector<Policy> parse_policies_v1(const nlohmann::json& array);
nlohmann::json render_policies_v2(const std::vector<Policy>& policies);
nlohmann::json render_policies_v1(const std::vector<Policy>& policies);

}  // namespace wincni::hns
