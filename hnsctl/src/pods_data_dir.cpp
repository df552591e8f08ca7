#include "pods_data_dir.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

#include "wincni/cni/config.hpp"
#include "wincni/cni/config_file_names.hpp"
#include "wincni/cni/json_keys.hpp"
#include "wincni/cni/private_files.hpp"
#include "wincni/cni/stdin_text.hpp"

namespace wincni::hnsctl {

namespace files = cni::private_files;

namespace {

// The ipam.dataDir one plugin's config gives, "" for none.
std::optional<std::string> ipam_data_dir(const nlohmann::json& plugin) {
  const nlohmann::json* ipam = cni::find_key(plugin, "ipam");
  if (ipam == nullptr || !ipam->is_object()) return std::nullopt;
  const nlohmann::json* dir = cni::find_key(*ipam, "dataDir");
  return dir != nullptr && dir->is_string() ? dir->get<std::string>() : std::string();
}

}  // namespace

std::optional<PodsDataDir> pods_data_dir(const std::string& conf_dir, const std::string& network) {
  if (!files::is_directory(conf_dir)) return std::nullopt;
  std::vector<files::DirEntry> entries = files::list_directory(conf_dir);
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  for (const files::DirEntry& entry : entries) {
    if (!entry.regular_file || !cni::is_config_file_name(entry.name)) continue;
    const std::string path = files::join(conf_dir, entry.name);
    nlohmann::json document;
    try {
      const auto text = files::read_file(path);
      if (!text) continue;
      document = cni::parse_network_config(cni::stdin_as_utf8(*text));
    } catch (const std::exception&) {
      continue;  // not a config any runtime could load
    }
    const nlohmann::json* name = cni::find_key(document, "name");
    if (name == nullptr || !name->is_string() || name->get<std::string>() != network) continue;
    const nlohmann::json* plugins = cni::find_key(document, "plugins");
    const std::vector<nlohmann::json> each =
        plugins != nullptr && plugins->is_array() ? plugins->get<std::vector<nlohmann::json>>()
                                                  : std::vector<nlohmann::json>{document};
    for (const nlohmann::json& plugin : each) {
      if (auto dir = ipam_data_dir(plugin)) return PodsDataDir{*dir, path};
    }
  }
  return std::nullopt;
}

}  // namespace wincni::hnsctl
