#include "wincni/hostlocal/standing_reservation.hpp"

#include <array>

#include "allocator.hpp"
#include "range_set.hpp"
#include "wincni/hostlocal/store.hpp"

namespace wincni::hostlocal {

namespace {

constexpr std::array<std::string_view, 2> kStandingOwners{"kube-proxy", "dummy"};
constexpr std::string_view kSourceVipId = "kube-proxy";
constexpr std::string_view kSourceVipIfname = "source-vip";

}  // namespace

bool is_standing_owner(std::string_view container_id) {
  for (std::string_view owner : kStandingOwners) {
    if (container_id == owner) return true;
  }
  return false;
}

OwnerKey source_vip_owner() { return OwnerKey(kSourceVipId, kSourceVipIfname); }

StandingAddress hold_standing_address(std::string_view data_dir, std::string_view network, const cni::IpPrefix& subnet,
                                      const OwnerKey& owner) {
  const RangeSet set = RangeSet::canonicalize({RangeSpec{subnet.network(), std::nullopt, std::nullopt, std::nullopt}});
  Store store = Store::open(data_dir, network);
  const auto guard = store.lock();
  Snapshot snapshot = store.scan_owner(owner);
  StandingAddress held{cni::IpAddress{}, std::nullopt};
  std::optional<cni::IpAddress> kept;
  for (const cni::IpAddress& ip : snapshot.held_by(owner)) {
    if (!kept && set.contains(ip)) {
      kept = ip;
      continue;
    }
    held.moved_from = ip;
    store.release(snapshot.reservations.at(ip));
    snapshot.reservations.erase(ip);
  }
  if (kept) {
    held.address = *kept;
    return held;
  }
  held.address =
      Allocator(set, 0, store, snapshot).allocate(owner, owner.container_id(), std::nullopt).address.address();
  held.fresh = true;
  return held;
}

void release_standing_address(std::string_view data_dir, std::string_view network, const OwnerKey& owner,
                              const cni::IpAddress& address) {
  auto store = Store::open_existing(data_dir, network);
  if (!store) return;
  const auto guard = store->lock();
  const Snapshot snapshot = store->scan_owner(owner);
  for (const cni::IpAddress& ip : snapshot.held_by(owner)) {
    if (ip == address) store->release(snapshot.reservations.at(ip));
  }
}

}  // namespace wincni::hostlocal
