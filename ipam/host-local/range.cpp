#include "range.hpp"

#include <fmt/format.h>

#include "invalid_config.hpp"
#include "wincni/cni/error.hpp"

namespace wincni::hostlocal {

namespace {

// The last address the reference hands out by default: IPv4 keeps the
// broadcast address free, IPv6 has none.
IpAddress default_end(const IpPrefix& network) {
  IpAddress last = network.last();
  return network.family() == cni::IpFamily::V4 ? last.previous() : last;
}

bool in_subnet_and_bounds(const IpPrefix& subnet, const IpAddress& ip, const std::optional<IpAddress>& low,
                          const std::optional<IpAddress>& high) {
  if (ip.family() != subnet.family() || !subnet.contains(ip)) return false;
  if (low && ip < *low) return false;
  if (high && ip > *high) return false;
  return true;
}

}  // namespace

IpAddress canonical_ip(const IpAddress& ip) {
  if (ip.is_v4()) return ip;
  const auto& b = ip.bytes();
  for (int i = 0; i < 10; ++i) {
    if (b[i] != 0) return ip;
  }
  if (b[10] != 0xff || b[11] != 0xff) return ip;
  return IpAddress::from_bytes(cni::IpFamily::V4, &b[12]);
}

Range Range::canonicalize(const RangeSpec& spec) {
  if (!spec.subnet) throw invalid_config("IP <nil> not v4 nor v6");
  const IpPrefix& given = *spec.subnet;
  if (given.length() > given.address().bits() - 2) {
    throw invalid_config(fmt::format("Network {} too small to allocate from", given.str()));
  }
  const IpPrefix network = given.network();
  if (!given.is_network()) {
    throw invalid_config(
        fmt::format("Network has host bits set. For a subnet mask of length {} the network address is {}",
                    given.length(), network.address().str()));
  }

  Range r;
  r.subnet_ = network;
  r.gateway_ = spec.gateway ? canonical_ip(*spec.gateway) : network.address().next();

  // The reference checks the start against the *given* end, so a start after
  // the end is reported as a bad start.
  const std::optional<IpAddress> given_end =
      spec.range_end ? std::optional(canonical_ip(*spec.range_end)) : std::nullopt;
  if (spec.range_start) {
    r.start_ = canonical_ip(*spec.range_start);
    if (!in_subnet_and_bounds(network, r.start_, r.start_, given_end)) {
      throw invalid_config(fmt::format("RangeStart {} not in network {}", r.start_.str(), network.str()));
    }
  } else {
    r.start_ = network.address().next();
  }
  if (given_end) {
    r.end_ = *given_end;
    if (!in_subnet_and_bounds(network, r.end_, r.start_, r.end_)) {
      throw invalid_config(fmt::format("RangeEnd {} not in network {}", r.end_.str(), network.str()));
    }
  } else {
    r.end_ = default_end(network);
  }
  return r;
}

bool Range::contains(const IpAddress& ip) const {
  return in_subnet_and_bounds(subnet_, canonical_ip(ip), start_, end_);
}

bool Range::overlaps(const Range& other) const {
  if (family() != other.family()) return false;
  return contains(other.start_) || contains(other.end_) || other.contains(start_) || other.contains(end_);
}

std::string Range::str() const { return start_.str() + "-" + end_.str(); }

}  // namespace wincni::hostlocal
