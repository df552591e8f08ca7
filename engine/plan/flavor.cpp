#include "wincni/engine/flavor.hpp"

namespace wincni::engine {

std::optional<hns::NetworkType> EndpointFlavor::type_to_create(const EndpointConfig&) const { return std::nullopt; }

NetworkShape EndpointFlavor::network_shape(const EndpointConfig&, hns::NetworkType, const hns::HnsVersion&) const {
  return {};
}

std::string EndpointFlavor::network_creator() const { return "whatever creates it (flanneld)"; }

std::string EndpointFlavor::host_endpoint_role() const { return "the host's endpoint on the network"; }

cni::IpAddress EndpointFlavor::network_gateway(const EndpointConfig& config, hns::NetworkType,
                                               const cni::IpPrefix& subnet) const {
  const auto gateway = config.gateways.for_subnet(subnet);
  return gateway && subnet.contains(*gateway) ? *gateway : subnet.network().address().next();
}

std::optional<HostEndpointPlan> EndpointFlavor::host_endpoint(const EndpointConfig&, const NetworkView&) const {
  return std::nullopt;
}

std::optional<std::string> EndpointFlavor::needs_ipam(HnsApi) const { return std::nullopt; }

bool EndpointFlavor::carries(cni::IpFamily) const { return true; }

nlohmann::json EndpointFlavor::ipam_for_add(const EndpointConfig&, const NetworkView&, nlohmann::json ipam) const {
  return ipam;
}

std::optional<cni::IpAddress> EndpointFlavor::pod_gateway(const EndpointConfig& config, const NetworkView& network,
                                                          const cni::IpAddress& address,
                                                          const std::optional<cni::IpAddress>& ipam_gateway) const {
  if (auto explicit_gateway = config.gateways.for_address(address)) return explicit_gateway;
  if (ipam_gateway) return ipam_gateway;
  if (const SubnetView* subnet = network.subnet_of(address)) return subnet->gateway;
  return std::nullopt;
}

std::optional<cni::IpAddress> EndpointFlavor::provider_address(const NetworkView&) const { return std::nullopt; }

std::string EndpointFlavor::mac_for(const EndpointConfig&, const std::vector<cni::IpPrefix>&) const { return {}; }

std::optional<std::string> EndpointFlavor::connectivity_problem(const EndpointConfig&, const NetworkView&,
                                                                const EndpointQueries&) const {
  return std::nullopt;
}

}  // namespace wincni::engine
