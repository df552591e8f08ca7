#pragma once
// What the engine reads from a network config, in every dialect
// (docs/engine.md, "Configuration"): the containernetworking plugins' keys,
// Microsoft's sdnbridge / sdnoverlay and legacy wincni keys, and flannel's
// delegate keys. Top-level keys match case-insensitively. This header is the
// data a flavor sees; the engine's readers fill it in before a command runs,
// and reading never touches the host: what needs the host (the network,
// HNS's version) is decided later.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "wincni/cni/ip.hpp"
#include "wincni/cni/result.hpp"
#include "wincni/engine/views.hpp"
#include "wincni/hns/schema/policy.hpp"

namespace wincni::engine {

// An HNS policy the config spells out itself, in either dialect:
//   containernetworking  "policies":       [{"name":"EndpointPolicy","value":{...}}]
//   Microsoft / legacy   "AdditionalArgs": [{"Name":"EndpointPolicy","Value":{...}}]
// with a value of the v1 shape ({"Type":"OutBoundNAT","ExceptionList":[..]})
// or the v2 shape ({"Type":"OutBoundNAT","Settings":{"Exceptions":[..]}}),
// read into the one typed model so that either renders to either API.
enum class PolicyTarget { Endpoint, Network };

struct ConfigPolicy {
  PolicyTarget target = PolicyTarget::Endpoint;
  hns::Policy policy;
  std::string origin;  // "policies[2]", "AdditionalArgs[0]": for messages
};

// A route as configs write it (ipam.routes, Microsoft's additionalRoutes).
// The legacy wincni example has a route with a gateway and no destination,
// which means the default route.
struct ConfigRoute {
  std::optional<cni::IpPrefix> dst;
  std::optional<cni::IpAddress> gw;

  // No destination, 0.0.0.0/0 or ::/0.
  bool is_default() const;
  friend bool operator==(const ConfigRoute&, const ConfigRoute&) = default;
};

// An address range of the "ipam" section, read the way host-local reads
// them: the old single range (ipam.subnet, rangeStart, rangeEnd, gateway)
// and ipam.ranges, a list of range sets. The engine needs them without
// running IPAM: to create a missing network, to find the gateway the config
// set on purpose, and (flavors) to keep addresses away from host-local.
struct IpamRange {
  cni::IpPrefix subnet;
  std::optional<cni::IpAddress> range_start;
  std::optional<cni::IpAddress> range_end;
  std::optional<cni::IpAddress> gateway;
  // ipam.ranges[set][index]; nullopt for the old single range.
  std::optional<std::size_t> set;
  std::size_t index = 0;
};

// `ipam` with one range's rangeStart set (the old range's or ranges[set][index]'s).
nlohmann::json with_range_start(nlohmann::json ipam, const IpamRange& range, const cni::IpAddress& start);

// runtimeConfig.portMappings, the "portMappings" capability: what the runtime
// asks to publish on the host for this pod.
struct PortMapping {
  std::uint16_t host_port = 0;
  std::uint16_t container_port = 0;
  hns::IpProtocol protocol;  // TCP (6) or UDP (17): all HNS can map
  // The host address to publish on (HNS's VIP); nullopt for every address,
  // which is also what "0.0.0.0" and "::" mean.
  std::optional<cni::IpAddress> host_ip;

  friend bool operator==(const PortMapping&, const PortMapping&) = default;
};

// The gateways a config sets on purpose. They win over any convention (a
// flavor's own rule): the operator wrote them. In order of precedence, for a
// pod address:
//   1. the gateway of the IPAM range whose subnet holds the address
//      (ipam.ranges[][].gateway, or the old ipam.subnet + ipam.gateway);
//   2. the gateway of a default route in ipam.routes (no dst, 0.0.0.0/0, ::/0)
//      of the address's family — the legacy example's [{"GW": ..}];
//   3. with Microsoft's optionalFlags.gatewayFromAdditionalRoutes only, and
//      only for a family 1 and 2 left without one: the gw of the first
//      additionalRoutes entry whose dst is exactly 0.0.0.0/0 or ::/0 (no dst
//      does not count), as Microsoft's plugin fills in a gateway still unset.
// host-local's own default (the subnet's .1 when a range names no gateway)
// is not explicit: it is what host-local prints, not what the operator wrote.
// (Microsoft's plugin counts the gateway its IPAM prints as set, so there
// additionalRoutes never beat host-local's .1; here they do, since that .1
// is not the operator's.)
class ExplicitGateways {
 public:
  ExplicitGateways() = default;
  // `additional_gateways`: the additionalRoutes entries that give a gateway
  // (3. above).
  ExplicitGateways(std::vector<IpamRange> ranges, std::vector<ConfigRoute> ipam_routes,
                   std::vector<ConfigRoute> additional_gateways);

  // The gateway the config sets for a pod holding `address`.
  std::optional<cni::IpAddress> for_address(const cni::IpAddress& address) const;
  // The same when the address is not known yet (HNS assigns it), for a pod
  // on `subnet`.
  std::optional<cni::IpAddress> for_subnet(const cni::IpPrefix& subnet) const;

 private:
  std::optional<cni::IpAddress> from_routes(cni::IpFamily family) const;

  std::vector<IpamRange> ranges_;
  std::vector<ConfigRoute> ipam_routes_;
  std::vector<ConfigRoute> additional_gateways_;
};

// Microsoft's "optionalFlags".
struct OptionalFlags {
  // The PortMapping flag LocalRoutedVip. Without it HNS accepts a port
  // mapping on L2Bridge that never takes effect (docs/engine.md, "Port
  // mappings"), so on HCN (apiVersion 2) it is on unless the config says
  // "localRoutedPortMapping": false; HNS v1 port mappings have no flags.
  std::optional<bool> local_routed_port_mapping;
  bool allow_acl_port_mapping = false;  // an inbound Allow ACL per mapping
  // Read, and changes nothing: dual stack follows from the addresses
  // (docs/engine.md, "enableDualStack"). Microsoft's plugin needs it to
  // look at IPv6 at all; here IPv6 addresses, gateways and port mappings
  // come whenever the pod has an IPv6 address.
  bool enable_dual_stack = false;
  bool gateway_from_additional_routes = false;  // ExplicitGateways, 3.
  bool force_bridge_gateway = false;  // win-bridge: the bridge endpoint's address even over an explicit gateway
  bool loopback_dsr = false;
};

// How to create the network when it is missing and the flavor creates
// networks: only when the config names the host adapter ("master") and at
// least one subnet. A flannel delegate config names neither — flanneld
// creates that network, the plugin waits. The subnets' HNS gateways are the
// flavor's to decide (EndpointFlavor::network_gateway).
struct NetworkBlueprint {
  std::string adapter;
  std::vector<cni::IpPrefix> subnets;  // network addresses, each once, in config order
  std::vector<hns::Policy> policies;   // NetworkPolicy entries
  cni::Dns dns;
};

struct EndpointConfig {
  std::string network;        // "name": the HNS network's name
  std::string plugin_type;    // "type" as written ("win-bridge", "sdnbridge", "L2Tunnel", ...)
  std::optional<HnsApi> api;  // nullopt: decided by CNI_NETNS

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
  // How long ADD waits for a missing network it does not create
  // ("networkWaitSeconds", default 10).
  std::chrono::milliseconds network_wait{std::chrono::seconds(10)};

  std::string endpoint_mac_prefix;  // "xx-xx"; "" when not set
  // flanneld's vxlan settings, for an Overlay network the plugin creates
  // and for STATUS to compare with the one it finds: "vni" (the subnet's
  // VSID; Windows takes 4096 and up) and "vxlanPort" (UDP).
  std::optional<std::uint32_t> vni;
  std::optional<std::uint16_t> vxlan_port;

  // Settings that were read but do not apply (unknown optionalFlags); logged.
  std::vector<std::string> warnings;
};

}  // namespace wincni::engine
