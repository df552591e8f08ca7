#pragma once
// Takes one address of one range set for an attachment, in the reference's
// order and with its checks. The caller holds the store's lock and passes a
// snapshot taken under it (whole, or the attachment's part), which this
// keeps current.

#include <optional>
#include <string>
#include <string_view>

#include "range_set.hpp"
#include "wincni/cni/result.hpp"
#include "wincni/hostlocal/owner.hpp"
#include "wincni/hostlocal/store.hpp"

namespace wincni::hostlocal {

class Allocator {
 public:
  // `set_index` names the set's round-robin file (last_reserved_ip.<index>).
  Allocator(const RangeSet& set, size_t set_index, Store& store, Snapshot& snapshot);

  // The requested address when given (it must lie in the set, not be a
  // gateway, and be free); otherwise the next free address after the set's
  // last reserved one, refused when the attachment already holds one of this
  // set. Throws cni::Error with the reference's message (codes 110, 111: docs/error-codes.md).
  cni::IpConfig allocate(const OwnerKey& owner, std::string_view container_id,
                         const std::optional<cni::IpAddress>& requested);

 private:
  cni::IpConfig take_requested(const OwnerKey& owner, const cni::IpAddress& requested);
  cni::IpConfig take_next_free(const OwnerKey& owner, std::string_view container_id);
  // Known taken: by the snapshot, or by the store when the snapshot is partial.
  bool taken(const cni::IpAddress& ip) const;
  bool reserve(const cni::IpAddress& ip, const OwnerKey& owner);

  const RangeSet& set_;
  std::string range_id_;
  Store& store_;
  Snapshot& snapshot_;
};

}  // namespace wincni::hostlocal
