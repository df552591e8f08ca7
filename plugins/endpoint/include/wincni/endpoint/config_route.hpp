#pragma once
// Routes as configs write them: ipam.routes and Microsoft's additionalRoutes,
// [{"dst":..,"gw":..}] with keys in any case ("GW", "Dst"). The legacy
// wincni example has a route with a gateway and no destination, which means
// the default route.

#include <optional>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "wincni/cni/ip.hpp"

namespace wincni::endpoint {

struct ConfigRoute {
  std::optional<cni::IpPrefix> dst;
  std::optional<cni::IpAddress> gw;

  // No destination, 0.0.0.0/0 or ::/0.
  bool is_default() const;
  friend bool operator==(const ConfigRoute&, const ConfigRoute&) = default;
};

// `object[key]`, an array of routes; `path` names `object` in messages.
// cni::Error 7 for a malformed entry, or one with neither dst nor gw.
std::vector<ConfigRoute> read_config_routes(const nlohmann::json& object, std::string_view key, std::string_view path);

// The default route for `family`: 0.0.0.0/0 or ::/0.
cni::IpPrefix default_destination(cni::IpFamily family);

}  // namespace wincni::endpoint
