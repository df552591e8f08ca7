#include <optional>
#include <set>
#include <string>

#include <fmt/format.h>

#include "host_local_commands.hpp"
#include "ipam_config.hpp"
#include "range_iterator.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/os/private_files.hpp"
#include "wincni/hostlocal/store.hpp"

namespace wincni::hostlocal {

namespace {

namespace files = os::private_files;

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

// STATUS only reads (the runtime polls it every few seconds, for networks no
// pod may use yet): no folder, lock or file is created, and the store is
// read without its lock, so the answer is a moment's view. A data folder
// that cannot be written is found by the first ADD, not here.
void cmd_status(const cni::CommandContext& ctx) {
  const IpamConfig config = IpamConfig::load(ctx.config, ctx.cni_args);
  std::optional<std::string> full_set;
  try {
    const std::string& data_dir = config.location.data_dir;
    if (files::is_regular_file(data_dir)) {
      throw cni::Error(cni::kIoFailure, fmt::format("{} is a file, not a folder", data_dir));
    }
    std::optional<Store> store = Store::open_existing(data_dir, config.location.network);
    if (!store) {
      const std::string network_dir = Store::network_directory(data_dir, config.location.network);
      if (files::is_regular_file(network_dir)) {
        throw cni::Error(cni::kIoFailure, fmt::format("{} is a file, not a folder", network_dir));
      }
      return;  // nothing reserved yet: every range has room
    }
    std::optional<std::set<cni::IpAddress>> listed;
    for (size_t index = 0; index < config.range_sets.size() && !full_set; ++index) {
      if (!has_free_address(config.range_sets[index], index, *store, listed)) full_set = config.range_sets[index].str();
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
