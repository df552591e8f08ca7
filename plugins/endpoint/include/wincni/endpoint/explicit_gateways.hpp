#pragma once
// The gateways a config sets on purpose. They win over any convention (the
// bridge's .2): the operator wrote them. In order of precedence, for a pod
// address:
//   1. the gateway of the IPAM range whose subnet holds the address
//      (ipam.ranges[][].gateway, or the old ipam.subnet + ipam.gateway);
//   2. the gateway of a default route in ipam.routes (no dst, 0.0.0.0/0, ::/0)
//      of the address's family — the legacy example's [{"GW": ..}];
//   3. the same in Microsoft's additionalRoutes.
// host-local's own default (the subnet's .1 when a range names no gateway)
// is not explicit: it is what host-local prints, not what the operator wrote.

#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "wincni/cni/ip.hpp"
#include "wincni/endpoint/config_route.hpp"
#include "wincni/endpoint/ipam_ranges.hpp"

namespace wincni::endpoint {

class ExplicitGateways {
 public:
  ExplicitGateways() = default;
  ExplicitGateways(std::vector<IpamRange> ranges, std::vector<ConfigRoute> ipam_routes,
                   std::vector<ConfigRoute> additional_routes);

  // The gateway the config sets for a pod holding `address`.
  std::optional<cni::IpAddress> for_address(const cni::IpAddress& address) const;
  // The same when the address is not known yet (HNS assigns it), for a pod
  // on `subnet`.
  std::optional<cni::IpAddress> for_subnet(const cni::IpPrefix& subnet) const;

 private:
  std::optional<cni::IpAddress> from_routes(cni::IpFamily family) const;

  std::vector<IpamRange> ranges_;
  std::vector<ConfigRoute> ipam_routes_;
  std::vector<ConfigRoute> additional_routes_;
};

}  // namespace wincni::endpoint
