// CHECK: what HNS holds against what the runtime was told (prevResult), and
// IPAM's own CHECK beside it (ipam_beside.hpp), whose error comes after
// HNS's. Every mismatch is named precisely.

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "commands/invocation.hpp"
#include "commands/ipam_beside.hpp"
#include "commands/ipam_calls.hpp"
#include "wincni/engine/engine.hpp"
#include "commands/network_locator.hpp"
#include "plan/result_builder.hpp"

namespace wincni::engine {

namespace {

[[noreturn]] void mismatch(const std::string& message) { throw cni::Error(cni::kEndpointMismatch, message); }

std::string addresses_text(const std::vector<cni::IpPrefix>& addresses) {
  std::string text;
  for (const cni::IpPrefix& address : addresses) text += (text.empty() ? "" : ", ") + address.str();
  return text.empty() ? "none" : text;
}

void check_attachment(const Invocation& invocation, const EndpointView& endpoint) {
  if (invocation.access->is_attached(endpoint, invocation.attachment)) return;
  if (invocation.attachment.ns) {
    mismatch(endpoint.ns.is_null() ? fmt::format("endpoint \"{}\" is attached to no namespace, not to CNI_NETNS {}",
                                                 endpoint.name, invocation.attachment.ns->str())
                                   : fmt::format("endpoint \"{}\" is attached to namespace {}, not to CNI_NETNS {}",
                                                 endpoint.name, endpoint.ns.str(), invocation.attachment.ns->str()));
  }
  mismatch(
      fmt::format("endpoint \"{}\" is not attached to container {}", endpoint.name, invocation.attachment.container));
}

void check_addresses(const EndpointView& endpoint, const cni::Result& previous) {
  const auto& held = endpoint.addresses;
  for (const cni::IpConfig& ip : previous.ips) {
    if (std::find(held.begin(), held.end(), ip.address) == held.end()) {
      mismatch(fmt::format("prevResult lists {}, but endpoint \"{}\" holds {}", ip.address.str(), endpoint.name,
                           addresses_text(held)));
    }
    if (!ip.gateway) continue;
    auto gateway = std::find_if(endpoint.gateways.begin(), endpoint.gateways.end(),
                                [&](const cni::IpAddress& g) { return g.family() == ip.address.family(); });
    if (gateway == endpoint.gateways.end() || *gateway != *ip.gateway) {
      mismatch(fmt::format("prevResult's gateway for {} is {}, but endpoint \"{}\" has {}", ip.address.str(),
                           ip.gateway->str(), endpoint.name,
                           gateway == endpoint.gateways.end() ? std::string("none") : gateway->str()));
    }
  }
  for (const cni::IpPrefix& address : held) {
    auto listed = std::find_if(previous.ips.begin(), previous.ips.end(),
                               [&](const cni::IpConfig& ip) { return ip.address == address; });
    if (listed == previous.ips.end()) {
      mismatch(fmt::format("endpoint \"{}\" holds {}, which prevResult does not list", endpoint.name, address.str()));
    }
  }
}

// The pod's interface carries the endpoint's MAC: named CNI_IFNAME in our
// results, after the endpoint in the reference plugins' and in ours before
// the result named the pod's interface (a runtime's cache may still hold
// such a result for a running pod).
void check_mac(const EndpointView& endpoint, const cni::Result& previous, const std::string& ifname) {
  for (const cni::Interface& interface : previous.interfaces) {
    if ((interface.name != ifname && interface.name != endpoint.name) || interface.mac.empty()) continue;
    if (cni_mac(interface.mac) != cni_mac(endpoint.mac)) {
      mismatch(fmt::format("prevResult gives interface \"{}\" MAC {}, but the endpoint has {}", interface.name,
                           interface.mac, cni_mac(endpoint.mac)));
    }
  }
}

}  // namespace

void EndpointEngine::check(const cni::CommandContext& ctx) const {
  Invocation invocation = Invocation::open(ctx, flavor_, backend_);
  const auto previous = ctx.config.prev_result();
  if (!previous) throw cni::Error(cni::kInvalidNetworkConfig, "CHECK needs prevResult in the config");

  // A dockershim container joining the pod's endpoint holds no allocation of
  // its own (its ADD and DEL never ask IPAM): the sandbox's CHECK checks it.
  const IpamCalls ipam(invocation);
  std::optional<IpamBeside> ipam_check;
  if (invocation.role != Role::Joiner && ipam.configured()) {
    ipam_check.emplace(ipam, &IpamCalls::check, invocation.log());
  }

  const auto network = invocation.access->find_network(invocation.config.network);
  if (!network) mismatch(fmt::format("network \"{}\" does not exist", invocation.config.network));
  require_accepted_type(*network, flavor_);
  const auto endpoint = invocation.access->find_endpoint(invocation.endpoint_name);
  if (!endpoint) mismatch(fmt::format("endpoint \"{}\" does not exist", invocation.endpoint_name));
  if (endpoint->network != network->id) {
    mismatch(fmt::format("endpoint \"{}\" is on network {}, not on \"{}\" ({})", endpoint->name,
                         endpoint->network.str(), network->name, network->id.str()));
  }
  check_attachment(invocation, *endpoint);
  check_addresses(*endpoint, *previous);
  check_mac(*endpoint, *previous, ctx.ifname);
  if (ipam_check) ipam_check->finish();
}

}  // namespace wincni::engine
