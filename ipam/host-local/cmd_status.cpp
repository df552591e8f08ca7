#include <fmt/format.h>

#include "commands.hpp"
#include "ipam_config.hpp"
#include "range_iterator.hpp"
#include "store.hpp"
#include "wincni/cni/error.hpp"

namespace wincni::hostlocal {

namespace {

bool has_free_address(const RangeSet& set, const std::set<cni::IpAddress>& taken) {
  RangeIterator candidates(set, std::nullopt);
  while (auto candidate = candidates.next()) {
    if (taken.count(candidate->ip) == 0) return true;
  }
  return false;
}

}  // namespace

void cmd_status(const cni::CommandContext& ctx) {
  const IpamConfig config = IpamConfig::load(ctx.config, ctx.cni_args);
  std::set<cni::IpAddress> taken;
  try {
    Store store = Store::open(config.location.data_dir, config.location.network);
    const auto guard = store.lock();
    store.probe_writable();
    taken = store.taken_addresses();
  } catch (const cni::Error& e) {
    if (e.code() != cni::kIoFailure) throw;
    throw cni::Error(cni::kPluginNotAvailable, fmt::format("data directory unusable: {}", e.msg()));
  }
  for (const auto& set : config.range_sets) {
    if (!has_free_address(set, taken)) {
      throw cni::Error(cni::kPluginNotAvailable, fmt::format("no IP addresses available in range set: {}", set.str()));
    }
  }
}

}  // namespace wincni::hostlocal
