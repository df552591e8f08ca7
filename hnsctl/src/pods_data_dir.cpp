#include "pods_data_dir.hpp"

#include <vector>

#include <nlohmann/json.hpp>

#include "config_folder.hpp"
#include "wincni/cni/json_keys.hpp"

namespace wincni::hnsctl {

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
  for (const FolderConfig& config : read_config_folder(conf_dir)) {
    const nlohmann::json* name = cni::find_key(config.document, "name");
    if (name == nullptr || !name->is_string() || name->get<std::string>() != network) continue;
    const nlohmann::json* plugins = cni::find_key(config.document, "plugins");
    const std::vector<nlohmann::json> each = plugins != nullptr && plugins->is_array()
                                                 ? plugins->get<std::vector<nlohmann::json>>()
                                                 : std::vector<nlohmann::json>{config.document};
    for (const nlohmann::json& plugin : each) {
      if (auto dir = ipam_data_dir(plugin)) return PodsDataDir{*dir, config.path};
    }
  }
  return std::nullopt;
}

}  // namespace wincni::hnsctl
