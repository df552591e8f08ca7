#include "allocator.hpp"

#include <fmt/format.h>

#include "file_names.hpp"
#include "range_iterator.hpp"
#include "wincni/cni/error.hpp"

namespace wincni::hostlocal {

namespace {

cni::IpConfig ip_config(const cni::IpAddress& ip, const Range& range) {
  cni::IpConfig config;
  config.address = cni::IpPrefix(ip, range.subnet().length());
  config.gateway = range.gateway();
  return config;
}

}  // namespace

Allocator::Allocator(const RangeSet& set, size_t set_index, Store& store, Snapshot& snapshot)
    : set_(set), range_id_(std::to_string(set_index)), store_(store), snapshot_(snapshot) {}

cni::IpConfig Allocator::allocate(const OwnerKey& owner, std::string_view container_id,
                                  const std::optional<cni::IpAddress>& requested) {
  return requested ? take_requested(owner, *requested) : take_next_free(owner, container_id);
}

bool Allocator::taken(const cni::IpAddress& ip) const {
  return snapshot_.taken(ip) || (!snapshot_.complete && store_.name_in_use(ip));
}

bool Allocator::reserve(const cni::IpAddress& ip, const OwnerKey& owner) {
  if (!store_.reserve(ip, owner, range_id_)) return false;
  snapshot_.reservations[ip] = Reservation{ip, ip_file_name(ip, platform_escapes_colons()), owner.content()};
  return true;
}

cni::IpConfig Allocator::take_requested(const OwnerKey& owner, const cni::IpAddress& requested) {
  const Range* range = set_.range_for(requested);
  if (range == nullptr) {
    throw cni::Error(cni::kInvalidNetworkConfig, fmt::format("{} not in range set {}", requested.str(), set_.str()));
  }
  if (requested == range->gateway()) {
    throw cni::Error(cni::kInvalidNetworkConfig, fmt::format("requested ip {} is subnet's gateway", requested.str()));
  }
  if (taken(requested) || !reserve(requested, owner)) {
    throw cni::Error(cni::kNoAddressAvailable, fmt::format("requested IP address {} is not available in range set {}",
                                                           requested.str(), set_.str()));
  }
  return ip_config(requested, *range);
}

cni::IpConfig Allocator::take_next_free(const OwnerKey& owner, std::string_view container_id) {
  for (const auto& held : snapshot_.held_by(owner)) {
    if (set_.contains(held)) {
      throw cni::Error(
          cni::kDuplicateAllocation,
          fmt::format("{} has been allocated to {}, duplicate allocation is not allowed", held.str(), container_id));
    }
  }
  RangeIterator candidates(set_, store_.last_reserved(range_id_));
  while (auto candidate = candidates.next()) {
    // The snapshot spares a failing create for every address known taken;
    // reserve() still refuses one that was taken behind our back.
    if (!taken(candidate->ip) && reserve(candidate->ip, owner)) {
      return ip_config(candidate->ip, *candidate->range);
    }
  }
  throw cni::Error(cni::kNoAddressAvailable, fmt::format("no IP addresses available in range set: {}", set_.str()));
}

}  // namespace wincni::hostlocal
