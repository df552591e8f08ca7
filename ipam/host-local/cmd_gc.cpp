#include <set>
#include <string>

#include "host_local_commands.hpp"
#include "go_strings.hpp"
#include "ipam_config.hpp"
#include "release.hpp"
#include "store_lock_limit.hpp"
#include "wincni/hostlocal/standing_reservation.hpp"

namespace wincni::hostlocal {

void cmd_gc(const cni::CommandContext& ctx) {
  const StoreLocation location = StoreLocation::of(ctx.config);
  auto store = Store::open_existing(location.data_dir, location.network);
  if (!store) return;
  // What a valid attachment's file may say: its current content, or the
  // legacy bare container ID.
  std::set<std::string, std::less<>> valid_contents;
  for (const auto& attachment : ctx.config.valid_attachments()) {
    const OwnerKey key(attachment.container_id, attachment.ifname);
    valid_contents.insert(key.content());
    valid_contents.insert(key.container_id());
  }
  const auto guard = store->lock(store_lock_limit(ctx));
  const Snapshot snapshot = store->scan();
  release_where(*store, snapshot, [&](const Reservation& r) {
    return r.content && valid_contents.count(trim_space(*r.content)) == 0 &&
           !is_standing_owner(owner_container_id(*r.content));
  });
}

}  // namespace wincni::hostlocal
