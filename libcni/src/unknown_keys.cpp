#include "wincni/cni/unknown_keys.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "wincni/cni/json_keys.hpp"

namespace wincni::cni {

namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

// Edits between two keys ignoring case: insertions, deletions, substitutions
// and swaps of neighbours ("serivce" is one swap from "service").
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1])) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

}  // namespace

std::vector<std::string> unknown_key_warnings(const nlohmann::json& object, std::span<const std::string_view> known,
                                              std::span<const std::string_view> also_known, std::string_view path) {
  std::vector<std::string> warnings;
  if (!object.is_object()) return warnings;
  for (const auto& item : object.items()) {
    const std::string& key = item.key();
    const auto same = [&key](std::string_view candidate) { return equals_ignore_case(key, candidate); };
    if (std::any_of(known.begin(), known.end(), same) || std::any_of(also_known.begin(), also_known.end(), same)) {
      continue;
    }
    std::string_view nearest;
    std::size_t best = 3;  // more than two edits away is no suggestion
    for (const std::span<const std::string_view> list : {known, also_known}) {
      for (std::string_view candidate : list) {
        const std::size_t distance = edit_distance(key, candidate);
        if (distance < best) {
          best = distance;
          nearest = candidate;
        }
      }
    }
    const std::string named = path.empty() ? key : fmt::format("{}.{}", path, key);
    warnings.push_back(nearest.empty()
                           ? fmt::format("unknown key \"{}\" is ignored", named)
                           : fmt::format("unknown key \"{}\" is ignored (did you mean \"{}\"?)", named, nearest));
  }
  return warnings;
}

}  // namespace wincni::cni
