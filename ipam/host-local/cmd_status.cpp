#include <optional>
#include <set>
#include <string>

#include <fmt/format.h>

#include "commands.hpp"
#include "ipam_config.hpp"
#include "range_iterator.hpp"
#include "store.hpp"
#include "wincni/cni/error.hpp"

namespace wincni::hostlocal {

namespace {

// Addresses looked up by name before STATUS lists the whole directory: in a
// range with room, the address after the last one reserved is nearly always
// free, and kubelet asks every few seconds, however full the node.
constexpr int kLookupsBeforeListing = 32;

// Walks the set from where ADD would look first: the first candidates by
// name, the rest against one listing of the store (shared by the sets).
bool has_free_address(const RangeSet& set, size_t set_index, const Store& store,
                      std::optional<std::set<cni::IpAddress>>& listed) {
  RangeIterator candidates(set, store.last_reserved(std::to_string(set_index)));
  for (int looked_up = 0; auto candidate = candidates.next(); ++looked_up) {
    if (looked_up < kLookupsBeforeListing) {
      if (!store.name_in_use(candidate->ip)) return true;
      continue;
    }
    if (!listed) listed = store.taken_addresses();
    if (listed->count(candidate->ip) == 0) return true;
  }
  return false;  // every address of the set is taken
}

}  // namespace

void cmd_status(const cni::CommandContext& ctx) {
  const IpamConfig config = IpamConfig::load(ctx.config, ctx.cni_args);
  std::optional<std::string> full_set;
  try {
    Store store = Store::open(config.location.data_dir, config.location.network);
    const auto guard = store.lock();
    store.probe_writable();
    std::optional<std::set<cni::IpAddress>> listed;
    for (size_t index = 0; index < config.range_sets.size() && !full_set; ++index) {
      if (!has_free_address(config.range_sets[index], index, store, listed)) full_set = config.range_sets[index].str();
    }
  } catch (const cni::Error& e) {
    if (e.code() != cni::kIoFailure) throw;
    throw cni::Error(cni::kPluginNotAvailable, fmt::format("data directory unusable: {}", e.msg()));
  }
  if (full_set) {
    throw cni::Error(cni::kPluginNotAvailable, fmt::format("no IP addresses available in range set: {}", *full_set));
  }
}

}  // namespace wincni::hostlocal
