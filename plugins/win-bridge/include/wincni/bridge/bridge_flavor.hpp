#pragma once
// win-bridge: pods on an L2Bridge or L2Tunnel network. What is bridge's own
// (docs/win-bridge.md, "The gateway rule"):
//   - on L2Bridge the pod's gateway is the host's bridge endpoint, by
//     convention the subnet's .2 (flanneld's cbr0_ep; the legacy example's
//     10.10.187.66). A gateway the config sets explicitly wins; with
//     optionalFlags.forceBridgeGateway the .2 wins even over that. On
//     L2Tunnel the engine's default applies (explicit, IPAM's, the subnet's);
//   - the bridge endpoint is the host's endpoint "<network>_ep" at the pods'
//     gateway. A network win-bridge creates gets it, as flanneld's host-gw
//     backend makes cbr0_ep; that network's HNS gateway is the subnet's .1,
//     as on flanneld's cbr0, so that HNS keeps .1 and the bridge endpoint
//     holds .2 (host-local and HNS's own assignments start at .3);
//   - host-local is kept from handing out the addresses a pod must never
//     have: when a range has no rangeStart, its start moves past the
//     subnet's HNS gateway, the pods' gateway and the bridge endpoint's
//     address (.1 and .2: .3);
//   - STATUS reports limited connectivity (51) while no endpoint on the
//     network holds the pods' gateway.

#include "wincni/engine/flavor.hpp"

namespace wincni::bridge {

class BridgeFlavor final : public engine::EndpointFlavor {
 public:
  std::string_view plugin_name() const override { return "win-bridge"; }
  std::string_view description() const override { return "CNI plugin for pods on HNS L2Bridge and L2Tunnel networks"; }

  bool accepts(hns::NetworkType type) const override;
  std::string accepted_types() const override { return "L2Bridge or L2Tunnel"; }
  std::optional<hns::NetworkType> type_to_create(const engine::EndpointConfig& config) const override;
  cni::IpAddress network_gateway(const engine::EndpointConfig& config, hns::NetworkType type,
                                 const cni::IpPrefix& subnet) const override;
  std::optional<engine::HostEndpointPlan> host_endpoint(const engine::EndpointConfig& config,
                                                        const engine::NetworkView& network) const override;
  std::string host_endpoint_role() const override { return "the host's bridge endpoint"; }

  nlohmann::json ipam_for_add(const engine::EndpointConfig& config, const engine::NetworkView& network,
                              nlohmann::json ipam) const override;
  std::optional<cni::IpAddress> pod_gateway(const engine::EndpointConfig& config, const engine::NetworkView& network,
                                            const cni::IpAddress& address,
                                            const std::optional<cni::IpAddress>& ipam_gateway) const override;
  std::optional<std::string> connectivity_problem(const engine::EndpointConfig& config,
                                                  const engine::NetworkView& network,
                                                  const EndpointQueries& endpoints) const override;
};

// The subnet's .2 (network address + 2): where the host's bridge endpoint sits.
cni::IpAddress bridge_endpoint_address(const cni::IpPrefix& subnet);

// "<network>_ep": the host's bridge endpoint, as flanneld's host-gw backend
// names it and as win-bridge names the one it makes.
std::string bridge_endpoint_name(const engine::NetworkView& network);

}  // namespace wincni::bridge
