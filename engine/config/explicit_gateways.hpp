#pragma once
// Which additionalRoutes entries set a gateway (ExplicitGateways, config.hpp).

#include <string>
#include <vector>

#include "wincni/engine/config.hpp"

namespace wincni::engine {

// None unless `gateway_from_additional_routes`; then those with a gw and a
// dst of exactly 0.0.0.0/0 or ::/0. Every other entry that looks like a
// default route sets nothing and gets a line in `ignored`, for the log.
std::vector<ConfigRoute> gateway_routes(const std::vector<ConfigRoute>& additional_routes,
                                        bool gateway_from_additional_routes, std::vector<std::string>& ignored);

}  // namespace wincni::engine
