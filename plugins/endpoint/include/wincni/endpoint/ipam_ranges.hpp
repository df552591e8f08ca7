#pragma once
// The address ranges an "ipam" section declares, read the way host-local
// reads them: the old single range (ipam.subnet, rangeStart, rangeEnd,
// gateway) and ipam.ranges, a list of range sets. The engine needs them
// without running IPAM: to create a missing network, to find the gateway the
// config set on purpose, and (bridge) to keep addresses away from host-local.

#include <cstddef>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "wincni/cni/ip.hpp"

namespace wincni::endpoint {

struct IpamRange {
  cni::IpPrefix subnet;
  std::optional<cni::IpAddress> range_start;
  std::optional<cni::IpAddress> range_end;
  std::optional<cni::IpAddress> gateway;
  // ipam.ranges[set][index]; nullopt for the old single range.
  std::optional<std::size_t> set;
  std::size_t index = 0;
};

// The old single range first, then ranges in order. cni::Error 7 naming the
// field for an address that does not parse; host-local itself checks the
// rest (host bits, ranges outside the subnet) and answers with its messages.
std::vector<IpamRange> read_ipam_ranges(const nlohmann::json& ipam);

// `ipam` with one range's rangeStart set (the old range's or ranges[set][index]'s).
nlohmann::json with_range_start(nlohmann::json ipam, const IpamRange& range, const cni::IpAddress& start);

}  // namespace wincni::endpoint
