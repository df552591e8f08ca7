#pragma once
// host-local's view of the network config: its range sets, routes, data
// directory, resolv.conf and the addresses the caller asked for. Keys are
// matched case-insensitively at every level, as Go's decoder does; order,
// defaults and error texts are the reference's.

#include <string>
#include <string_view>
#include <vector>

#include "range_set.hpp"
#include "wincni/cni/config.hpp"
#include "wincni/cni/result.hpp"

namespace wincni::hostlocal {

// Where a network's allocations live: all that DEL and GC need, so that a
// config whose ranges no longer validate can still release its addresses.
struct StoreLocation {
  std::string data_dir;  // ipam.dataDir; "" means the platform default
  std::string network;   // the config's "name"

  // Throws 7 when there is no ipam section, 6 when dataDir is not a string.
  static StoreLocation of(const cni::NetConf& conf);
};

struct IpamConfig {
  StoreLocation location;
  std::string cni_version;  // the config's, "0.1.0" when absent
  // runtimeConfig.ipRanges, then the old single range (ipam.subnet ...),
  // then ipam.ranges. Set i keeps its round-robin state in last_reserved_ip.i.
  std::vector<RangeSet> range_sets;
  std::vector<cni::Route> routes;
  std::string resolv_conf;  // "" means no DNS in the result
  // CNI_ARGS IP, then args.cni.ips, then runtimeConfig.ips; each once.
  std::vector<cni::IpAddress> requested_ips;

  // Throws cni::Error: 7 for an invalid config (the reference's messages),
  // 6 for a key of the wrong JSON type, 4 for a malformed CNI_ARGS.
  static IpamConfig load(const cni::NetConf& conf, std::string_view cni_args);
};

}  // namespace wincni::hostlocal
