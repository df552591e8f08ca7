#include "wincni/endpoint/explicit_gateways.hpp"

namespace wincni::endpoint {

ExplicitGateways::ExplicitGateways(std::vector<IpamRange> ranges, std::vector<ConfigRoute> ipam_routes,
                                   std::vector<ConfigRoute> additional_routes)
    : ranges_(std::move(ranges)),
      ipam_routes_(std::move(ipam_routes)),
      additional_routes_(std::move(additional_routes)) {}

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
  for (const auto* routes : {&ipam_routes_, &additional_routes_}) {
    for (const ConfigRoute& route : *routes) {
      if (route.is_default() && route.gw && route.gw->family() == family) return route.gw;
    }
  }
  return std::nullopt;
}

}  // namespace wincni::endpoint
