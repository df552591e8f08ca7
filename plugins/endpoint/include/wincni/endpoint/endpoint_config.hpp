#pragma once
// Everything the endpoint engine reads from a network config, in every
// dialect (docs/win-bridge.md, "Configuration"): the containernetworking
// plugins' keys, Microsoft's sdnbridge / legacy wincni keys, and flannel's
// delegate keys. Top-level keys match case-insensitively. Reading never
// touches the host; what needs the host (the network, HNS's version) is
// decided later, in the engine.

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "wincni/cni/config.hpp"
#include "wincni/cni/ip.hpp"
#include "wincni/cni/result.hpp"
#include "wincni/endpoint/config_policy.hpp"
#include "wincni/endpoint/config_route.hpp"
#include "wincni/endpoint/explicit_gateways.hpp"
#include "wincni/endpoint/ipam_ranges.hpp"
#include "wincni/endpoint/port_mapping.hpp"

namespace wincni::endpoint {

// apiVersion 1: HNS v1 (vmcompute HNSCall) and dockershim's CNI_NETNS
// ("none", "container:<id>"); 2: HCN (computenetwork) and a namespace GUID.
enum class HnsApi { V1 = 1, V2 = 2 };

// Microsoft's "optionalFlags".
struct OptionalFlags {
  bool local_routed_port_mapping = false;  // PortMapping flag LocalRoutedVip
  bool allow_acl_port_mapping = false;     // an inbound Allow ACL per mapping
  // Read, and changes nothing: dual stack follows from the addresses
  // (docs/win-bridge.md, "enableDualStack"). Microsoft's plugin needs it to
  // look at IPv6 at all; here IPv6 addresses, gateways and port mappings
  // come whenever the pod has an IPv6 address.
  bool enable_dual_stack = false;
  bool gateway_from_additional_routes = false;  // explicit_gateways.hpp
  bool force_bridge_gateway = false;       // the bridge endpoint's address even over an explicit gateway
  bool loopback_dsr = false;
};

// How to create the network when it is missing: only when the config names
// the host adapter ("master") and at least one subnet. A flannel delegate
// config names neither — flanneld creates that network, the plugin waits.
// The subnets' HNS gateways are the flavor's to decide
// (EndpointFlavor::network_gateway): on L2Bridge it is not the pods'.
struct NetworkBlueprint {
  std::string adapter;
  std::vector<cni::IpPrefix> subnets;  // network addresses, each once, in config order
  std::vector<hns::Policy> policies;  // NetworkPolicy entries
  cni::Dns dns;
};

struct EndpointConfig {
  std::string network;       // "name": the HNS network's name
  std::string plugin_type;   // "type" as written ("win-bridge", "sdnbridge", "L2Tunnel", ...)
  std::optional<HnsApi> api; // nullopt: decided by CNI_NETNS (api_for_netns)

  std::optional<cni::IpPrefix> ip_masq_network;  // an address reads as /32 or /128
  bool ip_masq = false;
  bool loopback_dsr = false;  // top level or optionalFlags
  OptionalFlags flags;

  std::vector<ConfigPolicy> policies;
  cni::Dns dns;  // with runtimeConfig.dns applied
  std::vector<PortMapping> port_mappings;

  std::string ipam_type;  // "" when HNS assigns addresses
  std::vector<IpamRange> ipam_ranges;
  std::vector<ConfigRoute> ipam_routes;
  std::vector<ConfigRoute> additional_routes;
  ExplicitGateways gateways;

  std::string adapter;  // "master"
  std::optional<NetworkBlueprint> blueprint;
  // How long ADD waits for a missing network it cannot create
  // ("networkWaitSeconds", default 10).
  std::chrono::milliseconds network_wait{std::chrono::seconds(10)};

  std::string endpoint_mac_prefix;  // "xx-xx" (overlay); "" when not set

  // Settings that were read but do not apply (unknown optionalFlags); logged.
  std::vector<std::string> warnings;

  // cni::Error 7 (or 6 for a generic key of the wrong CNI type) naming the
  // field for anything malformed.
  static EndpointConfig parse(const cni::NetConf& conf);
  // What DEL needs and nothing more (network, IPAM type, apiVersion when it
  // reads), for a config that parse() rejects: a pod's network is torn down
  // even when, say, its port mappings name a protocol HNS cannot map.
  static EndpointConfig for_teardown(const cni::NetConf& conf);
};

// The API a config without apiVersion uses for this CNI_NETNS: a namespace
// GUID means containerd and HCN; "none" and "container:<id>" mean dockershim
// and HNS v1. nullopt when the netns says nothing ("" on DEL).
std::optional<HnsApi> api_for_netns(std::string_view netns);

}  // namespace wincni::endpoint
