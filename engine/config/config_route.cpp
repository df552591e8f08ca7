#include "config/config_route.hpp"

#include <fmt/format.h>

#include "wincni/cni/config_fields.hpp"

namespace wincni::engine {

bool ConfigRoute::is_default() const { return !dst || dst->length() == 0; }

std::vector<ConfigRoute> read_config_routes(const nlohmann::json& object, std::string_view key, std::string_view path) {
  std::vector<ConfigRoute> routes;
  const nlohmann::json* list = cni::kConfigFields.read_array(object, key, path);
  if (list == nullptr) return routes;
  const std::string list_path = cni::kConfigFields.join_path(path, key);
  for (size_t i = 0; i < list->size(); ++i) {
    const nlohmann::json& entry = (*list)[i];
    const std::string where = cni::kConfigFields.index_path(list_path, i);
    if (!entry.is_object()) cni::kConfigFields.fail(where, fmt::format("must be an object, not {}", entry.type_name()));
    ConfigRoute route{cni::kConfigFields.read_prefix(entry, "dst", where),
                      cni::kConfigFields.read_address(entry, "gw", where)};
    if (!route.dst && !route.gw) cni::kConfigFields.fail(where, "needs a \"dst\" or a \"gw\"");
    if (route.dst && route.gw && route.dst->family() != route.gw->family()) {
      cni::kConfigFields.fail(where,
                              fmt::format("gateway {} is not of the family of {}", route.gw->str(), route.dst->str()));
    }
    routes.push_back(route);
  }
  return routes;
}

cni::IpPrefix default_destination(cni::IpFamily family) {
  return family == cni::IpFamily::V4 ? cni::IpPrefix(cni::IpAddress(), 0)
                                     : cni::IpPrefix(*cni::IpAddress::parse("::"), 0);
}

}  // namespace wincni::engine
