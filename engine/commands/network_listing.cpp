#include "wincni/engine/network_listing.hpp"

#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "commands/network_locator.hpp"

namespace wincni::engine {

std::string networks_hns_has(HnsAccess& access) {
  std::vector<std::string> listed;
  try {
    for (const NetworkView& network : access.list_networks()) {
      listed.push_back(fmt::format("\"{}\" ({})", network.name, hns::network_type_name(network.type)));
    }
  } catch (const std::exception&) {
    return {};
  }
  return listed.empty() ? "; HNS has no network" : fmt::format("; HNS has {}", fmt::join(listed, ", "));
}

std::string networks_hns_has(const std::shared_ptr<hns::HnsClient>& client) {
  const auto access = make_hns_access(client->supports(hns::Feature::ApiV2) ? HnsApi::V2 : HnsApi::V1, client);
  return networks_hns_has(*access);
}

}  // namespace wincni::engine
