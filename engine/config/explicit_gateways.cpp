#include "config/explicit_gateways.hpp"

#include <fmt/format.h>

namespace wincni::engine {

std::vector<ConfigRoute> gateway_routes(const std::vector<ConfigRoute>& additional_routes,
                                        bool gateway_from_additional_routes, std::vector<std::string>& ignored) {
  std::vector<ConfigRoute> gateways;
  for (size_t i = 0; i < additional_routes.size(); ++i) {
    const ConfigRoute& route = additional_routes[i];
    if (!route.is_default() || !route.gw) continue;  // a route, or the pods' own default route
    if (!gateway_from_additional_routes) {
      ignored.push_back(
          fmt::format("additionalRoutes[{}]: a default route gives the pods' gateway only with "
                      "optionalFlags.gatewayFromAdditionalRoutes; ignored",
                      i));
    } else if (!route.dst) {
      ignored.push_back(
          fmt::format("additionalRoutes[{}]: has no dst; gatewayFromAdditionalRoutes takes the "
                      "gateway of a dst of exactly 0.0.0.0/0 or ::/0 only; ignored",
                      i));
    } else {
      gateways.push_back(route);
    }
  }
  return gateways;
}

ExplicitGateways::ExplicitGateways(std::vector<IpamRange> ranges, std::vector<ConfigRoute> ipam_routes,
                                   std::vector<ConfigRoute> additional_gateways)
    : ranges_(std::move(ranges)),
      ipam_routes_(std::move(ipam_routes)),
      additional_gateways_(std::move(additional_gateways)) {}

std::optional<cni::IpAddress> ExplicitGateways::for_address(const cni::IpAddress& address) const {
  for (const IpamRange& range : ranges_) {
    if (range.gateway && range.subnet.contains(address)) return range.gateway;
  }
  return from_routes(address.family());
}

std::optional<cni::IpAddress> ExplicitGateways::for_subnet(const cni::IpPrefix& subnet) const {
  for (const IpamRange& range : ranges_) {
    if (range.gateway && range.subnet.network() == subnet.network()) return range.gateway;
  }
  return from_routes(subnet.family());
}

std::optional<cni::IpAddress> ExplicitGateways::from_routes(cni::IpFamily family) const {
  for (const auto* routes : {&ipam_routes_, &additional_gateways_}) {
    for (const ConfigRoute& route : *routes) {
      if (route.is_default() && route.gw && route.gw->family() == family) return route.gw;
    }
  }
  return std::nullopt;
}

}  // namespace wincni::engine
