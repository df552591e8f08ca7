#include <algorithm>

#include "host_local_commands.hpp"
#include "ipam_config.hpp"
#include "release.hpp"
#include "store_lock_limit.hpp"

namespace wincni::hostlocal {

void cmd_del(const cni::CommandContext& ctx) {
  const StoreLocation location = StoreLocation::of(ctx.config);
  auto store = Store::open_existing(location.data_dir, location.network);
  if (!store) return;
  const auto guard = store->lock(store_lock_limit(ctx));
  const OwnerKey owner(ctx.container_id, ctx.ifname);
  const Snapshot snapshot = store->scan_owner(owner);
  const auto ownership = [&owner](const Reservation& r) {
    return r.content ? owner.ownership(*r.content) : Ownership::kNone;
  };
  // A bare-ID file names no interface; it is this attachment's only when the
  // container holds nothing under its interface name (the reference's rule).
  const bool holds_current =
      std::any_of(snapshot.reservations.begin(), snapshot.reservations.end(),
                  [&](const auto& entry) { return ownership(entry.second) == Ownership::kExact; });
  const Ownership wanted = holds_current ? Ownership::kExact : Ownership::kLegacy;
  release_where(*store, snapshot, [&](const Reservation& r) { return ownership(r) == wanted; });
}

}  // namespace wincni::hostlocal
