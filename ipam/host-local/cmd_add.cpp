#include <algorithm>

#include <fmt/format.h>

#include "allocator.hpp"
#include "host_local_commands.hpp"
#include "ipam_config.hpp"
#include "resolv_conf.hpp"
#include "store_lock_limit.hpp"
#include "wincni/cni/error.hpp"

namespace wincni::hostlocal {

namespace {

// The first requested address the set contains, taken off the list.
std::optional<cni::IpAddress> pop_requested_in(std::vector<cni::IpAddress>& requested, const RangeSet& set) {
  const auto it = std::find_if(requested.begin(), requested.end(), [&](const auto& ip) { return set.contains(ip); });
  if (it == requested.end()) return std::nullopt;
  cni::IpAddress ip = *it;
  requested.erase(it);
  return ip;
}

std::string space_separated(const std::vector<cni::IpAddress>& ips) {
  std::string out;
  for (const auto& ip : ips) out += " " + ip.str();
  return out;
}

}  // namespace

cni::Result cmd_add(const cni::CommandContext& ctx) {
  const IpamConfig config = IpamConfig::load(ctx.config, ctx.cni_args);
  cni::Result result;
  if (!config.resolv_conf.empty()) result.dns = read_resolv_conf(config.resolv_conf);

  Store store = Store::open(config.location.data_dir, config.location.network);
  const auto guard = store.lock(store_lock_limit(ctx));
  const OwnerKey owner(ctx.container_id, ctx.ifname);
  Snapshot snapshot = store.scan_owner(owner);
  std::vector<cni::IpAddress> unserved = config.requested_ips;
  std::vector<Reservation> taken;
  try {
    for (size_t i = 0; i < config.range_sets.size(); ++i) {
      const RangeSet& set = config.range_sets[i];
      const auto requested = pop_requested_in(unserved, set);
      try {
        result.ips.push_back(Allocator(set, i, store, snapshot).allocate(owner, ctx.container_id, requested));
      } catch (const cni::Error& e) {
        throw cni::Error(e.code(), fmt::format("failed to allocate for range {}: {}", i, e.msg()), e.details());
      }
      taken.push_back(snapshot.reservations.at(result.ips.back().address.address()));
    }
    if (!unserved.empty()) {
      throw cni::Error(cni::kInvalidNetworkConfig, "failed to allocate all requested IPs:" + space_separated(unserved));
    }
  } catch (...) {
    // Only what this ADD took: the reference releases every address of the
    // attachment here, including ones an earlier ADD gave it.
    for (const auto& reservation : taken) {
      try {
        store.release(reservation);
      } catch (const cni::Error&) {
        // The original failure is what the caller needs; the address stays
        // owned by this attachment, so its DEL or a GC still releases it.
      }
    }
    throw;
  }
  result.routes = config.routes;
  return result;
}

}  // namespace wincni::hostlocal
