#include "node_layout.hpp"

#include <algorithm>

#include "wincni/flannel/flannel_config.hpp"

namespace wincni::installer {

namespace {

// "C:\opt\cni\bin" is "/opt/cni/bin" off Windows.
std::string on_this_platform(std::string windows_path) {
#ifdef _WIN32
  return windows_path;
#else
  std::string path = windows_path.substr(windows_path.find(':') + 1);
  std::replace(path.begin(), path.end(), '\\', '/');
  return path;
#endif
}

}  // namespace

std::optional<Layout> parse_layout(std::string_view name) {
  if (name == "containerd") return Layout::Containerd;
  if (name == "dockershim") return Layout::Dockershim;
  return std::nullopt;
}

NodeFolders windows_folders(Layout layout) {
  switch (layout) {
    case Layout::Dockershim:
      return {"C:\\k\\cni", "C:\\k\\cni\\config"};
    case Layout::Containerd:
      break;
  }
  return {"C:\\opt\\cni\\bin", "C:\\etc\\cni\\net.d"};
}

NodeFolders default_folders(Layout layout) {
  NodeFolders folders = windows_folders(layout);
  return {on_this_platform(folders.bin), on_this_platform(folders.conf)};
}

std::string windows_flanneld_conf_dir() { return "C:\\etc\\kube-flannel"; }

std::string default_flanneld_conf_dir() { return on_this_platform(windows_flanneld_conf_dir()); }

nlohmann::json windows_layout_table() {
  nlohmann::json table = nlohmann::json::object();
  for (const auto& [name, layout] : {std::pair{"containerd", Layout::Containerd}, {"dockershim", Layout::Dockershim}}) {
    const NodeFolders folders = windows_folders(layout);
    table[name] = {{"bin", folders.bin}, {"conf", folders.conf}};
  }
  table["flanneld"] = {{"conf", windows_flanneld_conf_dir()}};
  // flannel's root-relative defaults, as they resolve on drive C:, where
  // flanneld must write subnet.env.
  std::string subnet_file = std::string("C:") + flannel::kDefaultSubnetFile;
  std::replace(subnet_file.begin(), subnet_file.end(), '/', '\\');
  table["flannel"] = {{"subnetFile", subnet_file}};
  return table;
}

}  // namespace wincni::installer
