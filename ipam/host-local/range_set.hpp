#pragma once
// A range set: the ranges one address of one family is taken from (one
// allocation per set per ADD). Dual stack is two sets.

#include <string>
#include <vector>

#include "range.hpp"

namespace wincni::hostlocal {

class RangeSet {
 public:
  // Canonicalizes every range and checks the set as the reference does:
  // "empty range set", "mixed address families", "subnets A and B overlap".
  static RangeSet canonicalize(const std::vector<RangeSpec>& specs);

  const std::vector<Range>& ranges() const { return ranges_; }
  cni::IpFamily family() const { return ranges_.front().family(); }

  bool contains(const IpAddress& ip) const { return range_for(ip) != nullptr; }
  // The range holding `ip`, or nullptr.
  const Range* range_for(const IpAddress& ip) const;
  bool overlaps(const RangeSet& other) const;
  std::string str() const;  // "start-end,start-end"

 private:
  std::vector<Range> ranges_;
};

}  // namespace wincni::hostlocal
