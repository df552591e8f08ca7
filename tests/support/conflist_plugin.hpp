#pragma once
// What a runtime hands a plugin from a network list (CNI spec, "Network
// configuration lists"): the plugin's own object with the list's name and
// the cniVersion it settled on put in.

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace wincni::test {

inline nlohmann::json plugin_from_conflist(std::string_view conflist, const std::string& version,
                                           std::size_t index = 0) {
  const nlohmann::json list = nlohmann::json::parse(conflist);
  nlohmann::json plugin = list.at("plugins").at(index);
  plugin["name"] = list.at("name");
  plugin["cniVersion"] = version;
  return plugin;
}

}  // namespace wincni::test
