#include "wincni/overlay/overlay_flavor.hpp"

#include <cctype>

#include <fmt/format.h>

#include "wincni/cni/error.hpp"

namespace wincni::overlay {

using engine::EndpointConfig;
using engine::NetworkView;
using engine::SubnetView;

std::string overlay_mac(std::string_view prefix, const cni::IpAddress& address) {
  const auto& bytes = address.bytes();
  std::string mac = fmt::format("{}-{:02X}-{:02X}-{:02X}-{:02X}", prefix, bytes[0], bytes[1], bytes[2], bytes[3]);
  for (char& c : mac) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return mac;
}

std::optional<hns::NetworkType> OverlayFlavor::type_to_create(const EndpointConfig&) const {
  return hns::NetworkType::Overlay;
}

engine::NetworkShape OverlayFlavor::network_shape(const EndpointConfig& config, hns::NetworkType,
                                                  const hns::HnsVersion& version) const {
  engine::NetworkShape shape;
  shape.non_persistent = true;
  shape.subnet_policies.push_back(hns::Policy{hns::VsidPolicy{config.vni.value_or(kDefaultVni)}});
  const std::uint16_t port = config.vxlan_port.value_or(kDefaultVxlanPort);
  if (hns::supports(version, hns::Feature::VxlanPort)) {
    shape.policies.push_back(hns::Policy{hns::VxlanPortPolicy{port}});
  } else if (port != kDefaultVxlanPort) {
    // Before VxlanPort, HNS encapsulates on 4789 and nothing else.
    throw cni::Error(cni::kUnsupportedField,
                     fmt::format("vxlanPort {} needs HNS 10.3 or later (the VxlanPort policy); this host's HNS is {}, "
                                 "whose overlay networks use UDP {} only",
                                 port, version.str(), kDefaultVxlanPort));
  }
  if (hns::supports(version, hns::Feature::HostRoute)) shape.policies.push_back(hns::Policy{hns::HostRoutePolicy{}});
  for (const engine::ConfigPolicy& entry : config.policies) {
    if (const auto* given = entry.policy.as<hns::ProviderAddressPolicy>()) {
      shape.policies.push_back(hns::Policy{*given});
      break;
    }
  }
  return shape;
}

std::optional<std::string> OverlayFlavor::needs_ipam(engine::HnsApi api) const {
  if (api != engine::HnsApi::V1) return std::nullopt;
  return "an HNS v1 endpoint's MAC comes from its address, so the address must be known before HNS creates it "
         "(the reference win-overlay requires IPAM on v1 too)";
}

std::optional<cni::IpAddress> OverlayFlavor::pod_gateway(const EndpointConfig& config, const NetworkView& network,
                                                         const cni::IpAddress& address,
                                                         const std::optional<cni::IpAddress>& ipam_gateway) const {
  // HNS routes the overlay subnet through its own gateway; any other next
  // hop would leave the pod without a way out.
  if (const SubnetView* subnet = network.subnet_of(address); subnet != nullptr && subnet->gateway) {
    return subnet->gateway;
  }
  return EndpointFlavor::pod_gateway(config, network, address, ipam_gateway);
}

std::string OverlayFlavor::mac_for(const EndpointConfig& config, const std::vector<cni::IpPrefix>& addresses) const {
  for (const cni::IpPrefix& address : addresses) {
    if (address.address().is_v4()) {
      const std::string_view prefix =
          config.endpoint_mac_prefix.empty() ? kDefaultMacPrefix : std::string_view(config.endpoint_mac_prefix);
      return overlay_mac(prefix, address.address());
    }
  }
  return {};  // HNS assigns the address, and picks the MAC from its pool
}

std::optional<std::string> OverlayFlavor::connectivity_problem(const EndpointConfig& config, const NetworkView& network,
                                                               const EndpointQueries&) const {
  if (!network.provider_address) {
    return fmt::format(
        "network \"{}\" has no provider address yet (HNS has not bound it to the host's adapter): pods "
        "would not reach other nodes",
        network.name);
  }
  if (!config.vni) return std::nullopt;
  for (const SubnetView& subnet : network.subnets) {
    const auto* vsid = engine::find_policy<hns::VsidPolicy>(subnet.policies);
    if (vsid != nullptr && vsid->isolation_id != *config.vni) {
      return fmt::format(
          "network \"{}\" carries VNI {} on {}, the config's \"vni\" is {}: pods would not reach "
          "nodes that use the config's",
          network.name, vsid->isolation_id, subnet.prefix.str(), *config.vni);
    }
  }
  return std::nullopt;
}

}  // namespace wincni::overlay
