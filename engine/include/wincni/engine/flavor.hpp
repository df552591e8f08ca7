#pragma once
// What differs between the plugins built on the engine (win-bridge,
// win-overlay): which networks they work on and whether they create them,
// the pod's gateway, how IPAM is asked, what else an endpoint carries, and
// the words their messages use. The engine does everything else the same
// way for all of them (docs/engine.md, "Writing a plugin on the engine").

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "wincni/cni/ip.hpp"
#include "wincni/engine/config.hpp"
#include "wincni/engine/views.hpp"
#include "wincni/hns/features.hpp"
#include "wincni/hns/schema/common.hpp"
#include "wincni/hns/schema/policy.hpp"

namespace wincni::engine {

// What a network the plugin creates carries besides the config's blueprint
// (its adapter, subnets, gateways and NetworkPolicy entries).
struct NetworkShape {
  std::vector<hns::Policy> policies;         // network policies, after the config's own
  std::vector<hns::Policy> subnet_policies;  // on every subnet (an overlay's VSID)
  bool non_persistent = false;               // gone after a reboot, as flanneld makes its networks
};

class EndpointFlavor {
 public:
  virtual ~EndpointFlavor() = default;

  virtual std::string_view plugin_name() const = 0;  // "win-bridge"
  virtual std::string_view description() const = 0;  // one line for the about text

  virtual bool accepts(hns::NetworkType type) const = 0;
  virtual std::string accepted_types() const = 0;  // "L2Bridge or L2Tunnel", for messages

  // The type of network the plugin creates when the config's is missing and
  // the config says how (a blueprint: "master" and an ipam subnet), or
  // nullopt when this plugin never creates one (whatever does — flanneld —
  // is waited for, whatever the config says). Default: nullopt.
  virtual std::optional<hns::NetworkType> type_to_create(const EndpointConfig& config) const;
  // What a network of `type` the plugin creates carries besides the
  // blueprint, on a host whose HNS is `version` (win-overlay: flanneld's
  // VSID, VxlanPort and HostRoute). cni::Error when the config asks for what
  // this host cannot do. Default: nothing.
  virtual NetworkShape network_shape(const EndpointConfig& config, hns::NetworkType type,
                                     const hns::HnsVersion& version) const;
  // What creates the network when the plugin does not, for messages
  // ("flanneld"). Default: "whatever creates it (flanneld)".
  virtual std::string network_creator() const;
  // The HNS gateway of `subnet` in a network of `type` the plugin creates:
  // the address HNS keeps out of its assignments. Default: the config's
  // explicit gateway for the subnet, else the subnet's first address (.1).
  virtual cni::IpAddress network_gateway(const EndpointConfig& config, hns::NetworkType type,
                                         const cni::IpPrefix& subnet) const;
  // The node's own endpoint on `network`, where it is the pods' way out
  // (win-bridge: the bridge endpoint "<network>_ep" at the pods' gateway).
  // A network the plugin creates gets it, attached to the host; on any
  // network its addresses are kept from pods. Default: none.
  virtual std::optional<HostEndpointPlan> host_endpoint(const EndpointConfig& config, const NetworkView& network) const;
  // What the node's endpoint is called in messages ("the host's bridge
  // endpoint"). Default: "the host's endpoint on the network".
  virtual std::string host_endpoint_role() const;

  // Why ADD through `api` needs an IPAM plugin (win-overlay on HNS v1), for
  // the message; nullopt (the default) when HNS may assign the addresses.
  virtual std::optional<std::string> needs_ipam(HnsApi api) const;
  // Whether pods on the plugin's networks can have addresses of `family`
  // (Windows overlay networks carry no IPv6). Default: both families.
  virtual bool carries(cni::IpFamily family) const;

  // The "ipam" object IPAM ADD is run with. Default: the config's, unchanged.
  virtual nlohmann::json ipam_for_add(const EndpointConfig& config, const NetworkView& network,
                                      nlohmann::json ipam) const;

  // The gateway of a pod holding `address` (or, when HNS has not assigned
  // the address yet, any address of its subnet). `ipam_gateway` is the one
  // IPAM printed, if any. Default: the config's explicit gateway, else
  // IPAM's, else the HNS subnet's.
  virtual std::optional<cni::IpAddress> pod_gateway(const EndpointConfig& config, const NetworkView& network,
                                                    const cni::IpAddress& address,
                                                    const std::optional<cni::IpAddress>& ipam_gateway) const;

  // A ProviderAddress policy for the endpoint (win-overlay: the network's
  // provider address). Default: none.
  virtual std::optional<cni::IpAddress> provider_address(const NetworkView& network) const;
  // The endpoint's MAC (win-overlay derives it from the address). Default:
  // "", HNS picks one from its pool.
  virtual std::string mac_for(const EndpointConfig& config, const std::vector<cni::IpPrefix>& addresses) const;

  // STATUS: why pods on `network` would get only limited connectivity now,
  // or nullopt. `endpoints` reads the network's endpoints from HNS: ask only
  // when needed, and by name where the name is known — listing reads every
  // pod's endpoint, on every kubelet poll. Default: nothing to say.
  struct EndpointQueries {
    // The network's endpoint of that name, if it has one.
    std::function<std::optional<EndpointView>(const std::string& name)> named;
    std::function<std::vector<EndpointView>()> all;
  };
  virtual std::optional<std::string> connectivity_problem(const EndpointConfig& config, const NetworkView& network,
                                                          const EndpointQueries& endpoints) const;
};

}  // namespace wincni::engine
