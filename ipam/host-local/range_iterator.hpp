#pragma once
// The reference's round-robin order over a range set: start just after the
// last reserved address (when it still lies in the set), otherwise at the
// first range's start; walk each range to its end, then continue at the next
// range's start, wrapping; skip gateways; stop when back at the starting
// point, so the last reserved address is offered last. Both plugins must offer
// candidates in exactly this order to hand out the same address from the same
// state.

#include <optional>

#include "range_set.hpp"

namespace wincni::hostlocal {

struct Candidate {
  IpAddress ip;
  const Range* range;
};

class RangeIterator {
 public:
  // `set` must outlive the iterator.
  RangeIterator(const RangeSet& set, const std::optional<IpAddress>& last_reserved);

  // nullopt once every address of the set has been offered.
  std::optional<Candidate> next();

 private:
  std::optional<IpAddress> advance();

  const RangeSet& set_;
  size_t range_index_ = 0;
  std::optional<IpAddress> cursor_;  // the address offered last
  std::optional<IpAddress> stop_;    // seeing this again means the walk is over
  bool done_ = false;
};

}  // namespace wincni::hostlocal
