#pragma once
// Reads routes as configs write them (ConfigRoute, config.hpp): ipam.routes
// and Microsoft's additionalRoutes, [{"dst":..,"gw":..}] with keys in any
// case ("GW", "Dst").

#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "wincni/engine/config.hpp"

namespace wincni::engine {

// `object[key]`, an array of routes; `path` names `object` in messages.
// cni::Error 7 for a malformed entry, or one with neither dst nor gw.
std::vector<ConfigRoute> read_config_routes(const nlohmann::json& object, std::string_view key, std::string_view path);

// The default route for `family`: 0.0.0.0/0 or ::/0.
cni::IpPrefix default_destination(cni::IpFamily family);

}  // namespace wincni::engine
