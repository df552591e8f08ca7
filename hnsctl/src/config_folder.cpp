#include "config_folder.hpp"

#include <algorithm>
#include <stdexcept>

#include "wincni/cni/config.hpp"
#include "wincni/cni/config_file_names.hpp"
#include "wincni/os/private_files.hpp"
#include "wincni/cni/stdin_text.hpp"

namespace wincni::hnsctl {

namespace files = os::private_files;

std::vector<FolderConfig> read_config_folder(const std::string& folder) {
  std::vector<FolderConfig> configs;
  if (!files::is_directory(folder)) return configs;
  std::vector<files::DirEntry> entries = files::list_directory(folder);
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  for (const files::DirEntry& entry : entries) {
    if (!entry.regular_file || !cni::is_config_file_name(entry.name)) continue;
    const std::string path = files::join(folder, entry.name);
    try {
      const auto text = files::read_file(path);
      if (!text) continue;
      configs.push_back({path, cni::parse_network_config(cni::stdin_as_utf8(*text))});
    } catch (const std::runtime_error&) {
      continue;
    }
  }
  return configs;
}

}  // namespace wincni::hnsctl
