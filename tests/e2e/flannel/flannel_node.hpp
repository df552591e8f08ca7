#pragma once
// A Windows node running flanneld, emulated: the backend's HNS network as
// flanneld leaves it (hnsctl node host-gw / vxlan), its subnet.env, and
// flannel's config pointing at both, with every file in the node's scratch
// directory.

#include <filesystem>
#include <fstream>
#include <string>

#include "emulated_node.hpp"
#include "endpoint_policies.hpp"
#include "fixture_configs.hpp"

namespace wincni::test {

// What flanneld leaves on any emulated node, and flannel's config for it;
// free functions so that a plain EmulatedNode (the fault sweeps') can be a
// flanneld node too.
inline std::string subnet_file(const EmulatedNode& node) { return node.path("run/flannel/subnet.env"); }

// As flanneld writes it: a hidden file beside it, renamed over it, so that a
// plugin waiting for the file never reads it half-written.
inline void write_subnet_env(const EmulatedNode& node, std::string_view text) {
  const std::filesystem::path target(subnet_file(node));
  std::filesystem::create_directories(target.parent_path());
  const std::filesystem::path staged = target.parent_path() / ("." + target.filename().string());
  std::ofstream(staged, std::ios::binary) << text;
  std::filesystem::rename(staged, target);
}

// flanneld's host-gw node for the fixture's 10.244.4.0/24.
inline void flanneld_host_gw(const EmulatedNode& node) {
  node.host_gw("10.244.4.0/24", "cbr0");
  write_subnet_env(node, subnet_env_fixture("host-gw-v4.env"));
}

// flanneld's vxlan node for the same subnet (VNI 4096).
inline void flanneld_vxlan(const EmulatedNode& node) {
  node.vxlan("10.244.4.0/24", "flannel.4096");
  write_subnet_env(node, subnet_env_fixture("vxlan-v4-crlf.env"));
}

// flannel's config: `extra` merged over name, type, cniVersion and the
// node's paths (subnet.env, scratch folder, host-local's store).
inline nlohmann::json flannel_config(const EmulatedNode& node, const std::string& network,
                                     nlohmann::json extra = nlohmann::json::object()) {
  nlohmann::json config = {{"cniVersion", "1.0.0"},
                           {"name", network},
                           {"type", "flannel"},
                           {"subnetFile", subnet_file(node)},
                           {"dataDir", node.scratch_dir()},
                           {"subnetFileWaitSeconds", 0},
                           {"ipam", {{"dataDir", node.ipam_dir()}}}};
  config.merge_patch(extra);
  return config;
}

class FlannelNode : public EmulatedNode {
 public:
  std::string subnet_file() const { return wincni::test::subnet_file(*this); }
  std::string scratch_file(const std::string& sandbox) const { return scratch_dir() + "/" + sandbox; }
  void write_subnet_env(std::string_view text) const { wincni::test::write_subnet_env(*this, text); }
  void host_gw_node() const { flanneld_host_gw(*this); }
  void vxlan_node() const { flanneld_vxlan(*this); }
  nlohmann::json config(const std::string& network, nlohmann::json extra = nlohmann::json::object()) const {
    return flannel_config(*this, network, std::move(extra));
  }

  bool has_scratch(const std::string& sandbox) const { return std::filesystem::exists(scratch_file(sandbox)); }

  nlohmann::json scratch(const std::string& sandbox) const {
    std::ifstream in(scratch_file(sandbox));
    return nlohmann::json::parse(in, nullptr, false);
  }

  // Nothing of flannel's or its delegates' left: no scratch file, no
  // address held, and the invariants hold (audit()).
  void check_clean(const std::string& network) const {
    std::error_code error;
    const bool no_scratch = !std::filesystem::exists(scratch_dir()) || std::filesystem::is_empty(scratch_dir(), error);
    CHECK(no_scratch);
    CHECK(held_addresses(network).empty());
    CHECK(audit() == "");
  }
};

}  // namespace wincni::test
