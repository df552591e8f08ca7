#pragma once
// The gateways a config sets on purpose. They win over any convention (the
// bridge's .2): the operator wrote them. In order of precedence, for a pod
// address:
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

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "wincni/cni/ip.hpp"
#include "wincni/endpoint/config_route.hpp"
#include "wincni/endpoint/ipam_ranges.hpp"

namespace wincni::endpoint {

// The additionalRoutes entries that give a gateway (3. above): none unless
// `gateway_from_additional_routes`; then those with a gw and a dst of
// exactly 0.0.0.0/0 or ::/0. Every other entry that looks like a default
// route sets nothing and gets a line in `ignored`, for the log.
std::vector<ConfigRoute> gateway_routes(const std::vector<ConfigRoute>& additional_routes,
                                        bool gateway_from_additional_routes, std::vector<std::string>& ignored);

class ExplicitGateways {
 public:
  ExplicitGateways() = default;
  // `additional_gateways`: what gateway_routes() keeps.
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

}  // namespace wincni::endpoint
