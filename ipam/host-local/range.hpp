#pragma once
// One allocation range: a subnet, the inclusive first and last address that
// may be handed out, and the gateway that is never handed out. Validation and
// defaults follow the reference host-local exactly, error texts included,
// because operators compare the two plugins' messages.

#include <optional>
#include <string>

#include "wincni/cni/ip.hpp"

namespace wincni::hostlocal {

using cni::IpAddress;
using cni::IpPrefix;

// A range as written in the config; every address is optional.
struct RangeSpec {
  std::optional<IpPrefix> subnet;  // absent: "IP <nil> not v4 nor v6", as the reference says
  std::optional<IpAddress> range_start;
  std::optional<IpAddress> range_end;
  std::optional<IpAddress> gateway;
};

// A canonical range: subnet is a network address, every field is filled in.
class Range {
 public:
  // Applies the reference's defaults (gateway and start = network + 1; end =
  // broadcast - 1 for IPv4, the last address for IPv6) and checks. Throws
  // cni::Error(kInvalidNetworkConfig) with the reference's message.
  static Range canonicalize(const RangeSpec& spec);

  const IpPrefix& subnet() const { return subnet_; }
  const IpAddress& start() const { return start_; }
  const IpAddress& end() const { return end_; }
  const IpAddress& gateway() const { return gateway_; }
  cni::IpFamily family() const { return subnet_.family(); }

  // In the subnet and within [start, end].
  bool contains(const IpAddress& ip) const;
  bool overlaps(const Range& other) const;
  std::string str() const;  // "start-end"

 private:
  IpPrefix subnet_;
  IpAddress start_, end_, gateway_;
};

// Go's net.IP.To4(): an IPv4-mapped IPv6 address is that IPv4 address. The
// reference applies it to every address it reads.
IpAddress canonical_ip(const IpAddress& ip);

}  // namespace wincni::hostlocal
