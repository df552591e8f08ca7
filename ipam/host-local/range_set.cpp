#include "range_set.hpp"

#include <fmt/format.h>

#include "wincni/cni/error.hpp"

namespace wincni::hostlocal {

RangeSet RangeSet::canonicalize(const std::vector<RangeSpec>& specs) {
  if (specs.empty()) throw cni::Error(cni::kInvalidNetworkConfig, "empty range set");
  RangeSet set;
  for (const auto& spec : specs) {
    set.ranges_.push_back(Range::canonicalize(spec));
    if (set.ranges_.back().family() != set.ranges_.front().family()) {
      throw cni::Error(cni::kInvalidNetworkConfig, "mixed address families");
    }
  }
  for (size_t i = 0; i < set.ranges_.size(); ++i) {
    for (size_t j = i + 1; j < set.ranges_.size(); ++j) {
      if (set.ranges_[i].overlaps(set.ranges_[j])) {
        throw cni::Error(cni::kInvalidNetworkConfig,
                         fmt::format("subnets {} and {} overlap", set.ranges_[i].str(), set.ranges_[j].str()));
      }
    }
  }
  return set;
}

const Range* RangeSet::range_for(const IpAddress& ip) const {
  for (const auto& r : ranges_) {
    if (r.contains(ip)) return &r;
  }
  return nullptr;
}

bool RangeSet::overlaps(const RangeSet& other) const {
  for (const auto& a : ranges_) {
    for (const auto& b : other.ranges_) {
      if (a.overlaps(b)) return true;
    }
  }
  return false;
}

std::string RangeSet::str() const {
  std::string out;
  for (const auto& r : ranges_) {
    if (!out.empty()) out += ',';
    out += r.str();
  }
  return out;
}

}  // namespace wincni::hostlocal
