#pragma once
// host-local's CNI commands. Each takes the network's lock once and holds it
// for the whole command, across every range set (the reference locks per
// range set, so two of its ADDs can interleave).

#include "wincni/cni/result.hpp"
#include "wincni/cni/skel.hpp"

namespace wincni::hostlocal {

// One address per range set; on any failure releases what it took.
cni::Result cmd_add(const cni::CommandContext& ctx);
// Releases the attachment's addresses (legacy bare-ID files only when it has
// no current ones, as the reference); succeeds for unknown attachments.
void cmd_del(const cni::CommandContext& ctx);
// The attachment holds an address, and exactly the prevResult's addresses
// that lie in our ranges when a prevResult is given.
void cmd_check(const cni::CommandContext& ctx);
// Releases every reservation whose owner is not a valid attachment, except
// standing ones (standing_reservation.hpp: the kube-proxy source VIP).
void cmd_gc(const cni::CommandContext& ctx);
// 50 when the data directory cannot be written or a range set is full.
void cmd_status(const cni::CommandContext& ctx);

}  // namespace wincni::hostlocal
