#include "commands/address_holders.hpp"

#include <thread>

#include "commands/foreign_endpoint.hpp"
#include "plan/endpoint_marker.hpp"
#include "wincni/cni/milliseconds_setting.hpp"

namespace wincni::engine {

namespace {

constexpr std::chrono::milliseconds kDefaultGrace{2000};
constexpr std::chrono::milliseconds kGracePoll{100};

std::optional<cni::IpAddress> shared_address(const EndpointView& endpoint, const EndpointSpec& spec) {
  for (const cni::IpPrefix& held : endpoint.addresses) {
    for (const cni::IpPrefix& wanted : spec.addresses) {
      if (wanted.address() == held.address()) return held.address();
    }
  }
  return std::nullopt;
}

// The endpoint as HNS has it now, or nullopt once it is gone.
std::optional<EndpointView> reread(HnsAccess& access, const EndpointView& endpoint) {
  auto now = access.find_endpoint(endpoint.name);
  if (now && now->id == endpoint.id) return now;
  return std::nullopt;
}

}  // namespace

std::vector<AddressHolder> address_holders(HnsAccess& access, const EndpointSpec& spec, const NetworkView& network) {
  std::vector<AddressHolder> holders;
  for (EndpointView& endpoint : access.endpoints_of(network)) {
    if (endpoint.id == spec.id) continue;
    if (auto address = shared_address(endpoint, spec)) holders.push_back({std::move(endpoint), *address});
  }
  return holders;
}

std::chrono::milliseconds unattached_grace(const cni::Environment& env) {
  return cni::milliseconds_setting(env.get_or("WINCNI_ORPHAN_GRACE_MS", "")).value_or(kDefaultGrace);
}

HolderVerdict judge_holders(Invocation& invocation, std::vector<AddressHolder> holders) {
  HnsAccess& access = *invocation.access;
  for (const AddressHolder& holder : holders) {
    const EndpointView& endpoint = holder.endpoint;
    if (!is_marked(endpoint.id, endpoint.network, endpoint.name)) {
      throw endpoint_in_the_way(access, endpoint, holder.address.str(), invocation.flavor.plugin_name());
    }
  }
  HolderVerdict verdict;
  const auto deadline = std::chrono::steady_clock::now() + unattached_grace(invocation.env());
  for (AddressHolder& holder : holders) {
    Occupancy occupancy = access.occupancy(holder.endpoint);
    bool gone = false;
    // One attached to nothing may be another ADD's, between its create and
    // its attach: it is watched until the grace period is over.
    while (occupancy == Occupancy::Unattached && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(kGracePoll);
      auto now = reread(access, holder.endpoint);
      if (!now) {
        gone = true;  // its own ADD undid it: the address is free
        break;
      }
      holder.endpoint = std::move(*now);
      occupancy = access.occupancy(holder.endpoint);
    }
    if (gone) continue;
    (occupancy == Occupancy::Live ? verdict.live : verdict.dead).push_back(std::move(holder));
  }
  return verdict;
}

}  // namespace wincni::engine
