#include "commands/foreign_endpoint.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace wincni::engine {

namespace {

// Whose the endpoint is, as far as HNS tells.
std::string attached_to(HnsAccess& access, const EndpointView& endpoint) {
  if (!endpoint.ns.is_null()) return fmt::format("attached to namespace {}", endpoint.ns.str());
  if (!endpoint.containers.empty())
    return fmt::format("attached to container {}", fmt::join(endpoint.containers, ", "));
  try {
    if (access.is_host_attached(endpoint)) return "attached to the host (a node endpoint)";
  } catch (const std::exception&) {
    // The answer only colours the message.
  }
  return "attached to nothing";
}

}  // namespace

cni::Error endpoint_in_the_way(HnsAccess& access, const EndpointView& endpoint, std::string_view holds,
                               std::string_view plugin) {
  return cni::Error(
      cni::kEndpointInTheWay,
      fmt::format("endpoint \"{}\" ({}) holds {}, which this pod needs, and {} did not create it "
                  "(another plugin's or an operator's; {}): it is left alone — remove it "
                  "(hnsctl endpoint delete {}) once nothing uses it",
                  endpoint.name, endpoint.id.str(), holds, plugin, attached_to(access, endpoint), endpoint.id.str()));
}

}  // namespace wincni::engine
