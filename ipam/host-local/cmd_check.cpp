#include <algorithm>

#include <fmt/format.h>

#include "host_local_commands.hpp"
#include "ipam_config.hpp"
#include "store_lock_limit.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/hostlocal/store.hpp"

namespace wincni::hostlocal {

namespace {

bool in_any_set(const std::vector<RangeSet>& sets, const cni::IpAddress& ip) {
  return std::any_of(sets.begin(), sets.end(), [&](const RangeSet& set) { return set.contains(ip); });
}

template <typename List>
bool listed(const List& ips, const cni::IpAddress& ip) {
  return std::find(ips.begin(), ips.end(), ip) != ips.end();
}

}  // namespace

void cmd_check(const cni::CommandContext& ctx) {
  const IpamConfig config = IpamConfig::load(ctx.config, ctx.cni_args);
  const cni::Error not_found(cni::kAllocationMismatch,
                             fmt::format("host-local: Failed to find address added by container {}", ctx.container_id));
  auto store = Store::open_existing(config.location.data_dir, config.location.network);
  if (!store) throw not_found;
  std::vector<cni::IpAddress> held;
  {
    const auto guard = store->lock(store_lock_limit(ctx));
    const OwnerKey owner(ctx.container_id, ctx.ifname);
    held = store->scan_owner(owner).held_by(owner);
  }
  if (held.empty()) throw not_found;

  const auto prev = ctx.config.prev_result();
  if (!prev) return;
  std::vector<cni::IpAddress> announced;
  for (const auto& ip : prev->ips) announced.push_back(canonical_ip(ip.address.address()));
  // Addresses outside our ranges belong to other plugins of the chain, and
  // reservations outside them to an older config of this network.
  for (const auto& ip : held) {
    if (in_any_set(config.range_sets, ip) && !listed(announced, ip)) {
      throw cni::Error(
          cni::kAllocationMismatch,
          fmt::format("host-local: address {} of container {} is not in prevResult", ip.str(), ctx.container_id));
    }
  }
  for (const auto& ip : announced) {
    if (in_any_set(config.range_sets, ip) && !listed(held, ip)) {
      throw cni::Error(cni::kAllocationMismatch,
                       fmt::format("host-local: prevResult address {} is not allocated to container {}", ip.str(),
                                   ctx.container_id));
    }
  }
}

}  // namespace wincni::hostlocal
