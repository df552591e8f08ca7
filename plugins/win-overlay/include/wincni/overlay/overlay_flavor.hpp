#pragma once
// win-overlay: pods on an HNS Overlay (VXLAN) network, the one flanneld's
// vxlan backend makes ("flannel.4096", legacy "vxlan0") and the OVN hybrid
// overlay and OpenShift's Windows nodes use. What is overlay's own
// (docs/win-overlay.md):
//   - the pod's MAC is endpointMacPrefix (default 0E-2A, flannel's
//     MacPrefix) followed by the four bytes of its IPv4 address;
//   - the endpoint carries the network's provider address (the node's
//     address on the underlay) unless the config gives one;
//   - the pod's gateway is the overlay subnet's, as HNS has it;
//   - a network win-overlay creates is made as flanneld makes it: VSID =
//     "vni" (4096 by default) on its subnet, VxlanPort where HNS has it,
//     HostRoute, not persistent across reboots;
//   - Windows overlay networks carry IPv4 only, and HNS v1 endpoints need
//     an IPAM plugin;
//   - STATUS reports limited connectivity (51) while the network has no
//     provider address or its VSID is not the config's vni.

#include "wincni/engine/flavor.hpp"

namespace wincni::overlay {

// flannel's MacPrefix, the reference plugin's default endpointMacPrefix.
inline constexpr std::string_view kDefaultMacPrefix = "0E-2A";
// flanneld's VNI and the IANA VXLAN port, the defaults of a network win-overlay creates.
inline constexpr std::uint32_t kDefaultVni = 4096;
inline constexpr std::uint16_t kDefaultVxlanPort = 4789;

class OverlayFlavor final : public engine::EndpointFlavor {
 public:
  std::string_view plugin_name() const override { return "win-overlay"; }
  std::string_view description() const override { return "CNI plugin for pods on HNS Overlay (VXLAN) networks"; }

  bool accepts(hns::NetworkType type) const override { return type == hns::NetworkType::Overlay; }
  std::string accepted_types() const override { return "Overlay"; }
  std::optional<hns::NetworkType> type_to_create(const engine::EndpointConfig& config) const override;
  engine::NetworkShape network_shape(const engine::EndpointConfig& config, hns::NetworkType type,
                                     const hns::HnsVersion& version) const override;
  std::string network_creator() const override { return "flanneld (its vxlan backend)"; }

  std::optional<std::string> needs_ipam(engine::HnsApi api) const override;
  bool carries(cni::IpFamily family) const override { return family == cni::IpFamily::V4; }

  std::optional<cni::IpAddress> pod_gateway(const engine::EndpointConfig& config, const engine::NetworkView& network,
                                            const cni::IpAddress& address,
                                            const std::optional<cni::IpAddress>& ipam_gateway) const override;
  std::optional<cni::IpAddress> provider_address(const engine::NetworkView& network) const override {
    return network.provider_address;
  }
  std::string mac_for(const engine::EndpointConfig& config, const std::vector<cni::IpPrefix>& addresses) const override;
  std::optional<std::string> connectivity_problem(const engine::EndpointConfig& config,
                                                  const engine::NetworkView& network,
                                                  const EndpointQueries& endpoints) const override;
};

// `prefix` ("0E-2A") followed by the four bytes of `address`, in HNS's
// upper-case dashed form: 10.244.1.5 -> 0E-2A-0A-F4-01-05.
std::string overlay_mac(std::string_view prefix, const cni::IpAddress& address);

}  // namespace wincni::overlay
