#pragma once
// What differs between the plugins built on the engine (win-bridge,
// win-overlay): which networks they work on, the pod's gateway, how IPAM is
// asked, and what else an endpoint carries. The engine does everything else
// the same way for all of them.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "wincni/cni/ip.hpp"
#include "wincni/endpoint/endpoint_config.hpp"
#include "wincni/endpoint/hns_host.hpp"
#include "wincni/endpoint/host_endpoint.hpp"
#include "wincni/hns/schema/common.hpp"

namespace wincni::endpoint {

class EndpointFlavor {
 public:
  virtual ~EndpointFlavor() = default;

  virtual std::string_view plugin_name() const = 0;  // "win-bridge"
  virtual std::string_view description() const = 0;  // one line for the about text

  virtual bool accepts(hns::NetworkType type) const = 0;
  virtual std::string accepted_types() const = 0;  // "L2Bridge or L2Tunnel", for messages
  // The type of a network the plugin creates from the config's blueprint.
  virtual hns::NetworkType type_to_create(const EndpointConfig& config) const = 0;
  // The HNS gateway of `subnet` in a network of `type` the plugin creates:
  // the address HNS keeps out of its assignments. Default: the config's
  // explicit gateway for the subnet, else the subnet's first address (.1).
  virtual cni::IpAddress network_gateway(const EndpointConfig& config, hns::NetworkType type,
                                         const cni::IpPrefix& subnet) const;
  // The host's own endpoint on `network`, where it is the pods' way out
  // (win-bridge: the bridge endpoint "<network>_ep" at the pods' gateway).
  // A network the plugin creates gets it, attached to the host; on any
  // network its addresses are kept from pods. Default: none.
  virtual std::optional<HostEndpointPlan> host_endpoint(const EndpointConfig& config,
                                                        const NetworkView& network) const;

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

  // A ProviderAddress policy for the endpoint (win-overlay). Default: none.
  virtual std::optional<cni::IpAddress> provider_address(const NetworkView& network) const;
  // The endpoint's MAC (win-overlay derives it from the address). Default:
  // "", HNS picks one from its pool.
  virtual std::string mac_for(const EndpointConfig& config, const std::vector<cni::IpPrefix>& addresses) const;

  // STATUS: why pods on `network` would get only limited connectivity now,
  // or nullopt. Default: nothing to say.
  virtual std::optional<std::string> connectivity_problem(const EndpointConfig& config, const NetworkView& network,
                                                          HnsHost& host) const;
};

}  // namespace wincni::endpoint
