// STATUS: whether an ADD could succeed now. HNS must answer and the network
// must be there (or creatable from the config), of a type the plugin works
// on: otherwise 50. The flavor may see limited connectivity (51). IPAM's
// STATUS is passed on, beside the HNS calls (ipam_beside.hpp); its error
// comes after HNS's and before limited connectivity.

#include <optional>

#include <fmt/format.h>

#include "commands/invocation.hpp"
#include "commands/ipam_beside.hpp"
#include "commands/ipam_calls.hpp"
#include "wincni/engine/engine.hpp"
#include "commands/network_locator.hpp"

namespace wincni::engine {

namespace {

[[noreturn]] void not_available(const std::string& message) { throw cni::Error(cni::kPluginNotAvailable, message); }

}  // namespace

void EndpointEngine::status(const cni::CommandContext& ctx) const {
  std::optional<Invocation> opened;
  std::optional<IpamCalls> ipam;
  std::optional<IpamBeside> ipam_status;
  std::optional<NetworkView> network;
  try {
    opened.emplace(Invocation::open(ctx, flavor_, backend_));
    ipam.emplace(*opened);
    if (ipam->configured()) ipam_status.emplace(*ipam, &IpamCalls::status, opened->log());
    opened->access->version();
    network = opened->access->find_network(opened->config.network);
  } catch (const hns::HnsError& e) {
    not_available(fmt::format("HNS is not reachable: {}", e.msg()));
  }
  Invocation& invocation = *opened;
  std::optional<std::string> limited;
  if (network) {
    try {
      require_accepted_type(*network, flavor_);
    } catch (const cni::Error& e) {
      not_available(e.msg());
    }
    HnsAccess& access = *invocation.access;
    const EndpointFlavor::EndpointQueries endpoints{[&](const std::string& name) -> std::optional<EndpointView> {
                                                      std::optional<EndpointView> endpoint = access.find_endpoint(name);
                                                      if (endpoint && endpoint->network != network->id)
                                                        return std::nullopt;
                                                      return endpoint;
                                                    },
                                                    [&] { return access.endpoints_of(*network); }};
    limited = flavor_.connectivity_problem(invocation.config, *network, endpoints);
  } else {
    std::optional<NetworkSpec> creatable;
    try {
      creatable = creatable_network(invocation.config, flavor_, invocation.access->version());
    } catch (const cni::Error& e) {
      not_available(
          fmt::format("network \"{}\" does not exist and cannot be created: {}", invocation.config.network, e.msg()));
    }
    if (!creatable) {
      not_available(fmt::format("network \"{}\" does not exist (yet): {}", invocation.config.network,
                                missing_network_advice(*invocation.access, invocation.config, flavor_)));
    }
  }
  if (ipam_status) ipam_status->finish();
  if (limited) throw cni::Error(cni::kPluginLimitedConnectivity, *limited);
}

}  // namespace wincni::engine
