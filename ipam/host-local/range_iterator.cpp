#include "range_iterator.hpp"

namespace wincni::hostlocal {

RangeIterator::RangeIterator(const RangeSet& set, const std::optional<IpAddress>& last_reserved) : set_(set) {
  if (last_reserved && set.contains(*last_reserved)) {
    const IpAddress last = canonical_ip(*last_reserved);
    const auto& ranges = set.ranges();
    for (size_t i = 0; i < ranges.size(); ++i) {
      if (ranges[i].contains(last)) {
        range_index_ = i;
        cursor_ = last;
        break;
      }
    }
  }
}

// Moves the cursor one step; nullopt when the walk is complete.
std::optional<IpAddress> RangeIterator::advance() {
  const auto& ranges = set_.ranges();
  if (!cursor_) {
    // First step of a walk that did not start from a last reserved address:
    // the first range's start is itself a candidate.
    cursor_ = ranges[range_index_].start();
    stop_ = cursor_;
    return cursor_;
  }
  if (*cursor_ == ranges[range_index_].end()) {
    range_index_ = (range_index_ + 1) % ranges.size();
    cursor_ = ranges[range_index_].start();
  } else {
    cursor_ = cursor_->next();
  }
  if (!stop_) {
    stop_ = cursor_;
  } else if (*cursor_ == *stop_) {
    return std::nullopt;
  }
  return cursor_;
}

std::optional<Candidate> RangeIterator::next() {
  while (!done_) {
    auto ip = advance();
    if (!ip) break;
    const Range& range = set_.ranges()[range_index_];
    if (*ip != range.gateway()) return Candidate{*ip, &range};
  }
  done_ = true;
  return std::nullopt;
}

}  // namespace wincni::hostlocal
