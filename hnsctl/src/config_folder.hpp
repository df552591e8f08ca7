#pragma once
// A runtime's CNI config folder as the runtime reads it: the .conf,
// .conflist and .json files, in name order (the first is the one containerd
// runs), each parsed as a plugin reads its stdin. doctor explains them;
// source-vip looks among them for the pods' store.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace wincni::hnsctl {

struct FolderConfig {
  std::string path;
  nlohmann::json document;
};

// The configs of `folder` that could be read and parsed (a file no runtime
// could load either is left out); nothing when `folder` does not exist.
std::vector<FolderConfig> read_config_folder(const std::string& folder);

}  // namespace wincni::hnsctl
