#include <fmt/format.h>

#include "commands.hpp"
#include "ipam_config.hpp"
#include "range_iterator.hpp"
#include "store.hpp"
#include "wincni/cni/error.hpp"

namespace wincni::hostlocal {

namespace {

bool has_free_address(const RangeSet& set, const Snapshot& snapshot) {
  RangeIterator candidates(set, std::nullopt);
  while (auto candidate = candidates.next()) {
    if (!snapshot.taken(candidate->ip)) return true;
  }
  return false;
}

}  // namespace

void cmd_status(const cni::CommandContext& ctx) {
  const IpamConfig config = IpamConfig::load(ctx.config, ctx.cni_args);
  Snapshot snapshot;
  try {
    Store store = Store::open(config.location.data_dir, config.location.network);
    const auto guard = store.lock();
    store.probe_writable();
    snapshot = store.scan();
  } catch (const cni::Error& e) {
    if (e.code() != cni::kIoFailure) throw;
    throw cni::Error(cni::kPluginNotAvailable, fmt::format("data directory unusable: {}", e.msg()));
  }
  for (const auto& set : config.range_sets) {
    if (!has_free_address(set, snapshot)) {
      throw cni::Error(cni::kPluginNotAvailable, fmt::format("no IP addresses available in range set: {}", set.str()));
    }
  }
}

}  // namespace wincni::hostlocal
