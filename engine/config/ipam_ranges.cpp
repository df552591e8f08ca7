#include "config/ipam_ranges.hpp"

#include <fmt/format.h>

#include "wincni/cni/config_fields.hpp"
#include "wincni/cni/json_keys.hpp"

namespace wincni::engine {

namespace {

constexpr std::string_view kRangeStart = "rangeStart";

IpamRange read_range(const nlohmann::json& object, const std::string& where, const cni::IpPrefix& subnet) {
  IpamRange range;
  range.subnet = subnet;
  range.range_start = cni::kConfigFields.read_address(object, kRangeStart, where);
  range.range_end = cni::kConfigFields.read_address(object, "rangeEnd", where);
  range.gateway = cni::kConfigFields.read_address(object, "gateway", where);
  return range;
}

// The key as the config spells it, so that a rewrite replaces it instead of
// adding a second spelling next to it.
std::string spelling_of(const nlohmann::json& object, std::string_view key) {
  for (const auto& item : object.items()) {
    if (cni::equals_ignore_case(item.key(), key)) return item.key();
  }
  return std::string(key);
}

}  // namespace

std::vector<IpamRange> read_ipam_ranges(const nlohmann::json& ipam) {
  std::vector<IpamRange> ranges;
  if (!ipam.is_object()) return ranges;
  if (auto subnet = cni::kConfigFields.read_prefix(ipam, "subnet", "ipam"))
    ranges.push_back(read_range(ipam, "ipam", *subnet));

  const nlohmann::json* sets = cni::kConfigFields.read_array(ipam, "ranges", "ipam");
  if (sets == nullptr) return ranges;
  for (size_t s = 0; s < sets->size(); ++s) {
    const std::string set_path = cni::kConfigFields.index_path("ipam.ranges", s);
    const nlohmann::json& set = (*sets)[s];
    if (!set.is_array())
      cni::kConfigFields.fail(set_path, fmt::format("must be an array of ranges, not {}", set.type_name()));
    for (size_t r = 0; r < set.size(); ++r) {
      const std::string where = cni::kConfigFields.index_path(set_path, r);
      const nlohmann::json& entry = set[r];
      if (!entry.is_object())
        cni::kConfigFields.fail(where, fmt::format("must be an object, not {}", entry.type_name()));
      auto subnet = cni::kConfigFields.read_prefix(entry, "subnet", where);
      if (!subnet) cni::kConfigFields.fail(cni::kConfigFields.join_path(where, "subnet"), "is required");
      IpamRange range = read_range(entry, where, *subnet);
      range.set = s;
      range.index = r;
      ranges.push_back(range);
    }
  }
  return ranges;
}

nlohmann::json with_range_start(nlohmann::json ipam, const IpamRange& range, const cni::IpAddress& start) {
  nlohmann::json* target = &ipam;
  if (range.set) {
    const std::string ranges_key = spelling_of(ipam, "ranges");
    target = &ipam[ranges_key][*range.set][range.index];
  }
  (*target)[spelling_of(*target, kRangeStart)] = start.str();
  return ipam;
}

}  // namespace wincni::engine
