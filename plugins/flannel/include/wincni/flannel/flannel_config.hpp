#pragma once
// flannel's own network config (docs/flannel.md, "Configuration"): the
// reference plugin's keys, read with its defaults and its delegate checks,
// and the keys from which flannel generates the Windows policies every
// deployment used to template by hand.

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "wincni/cni/config.hpp"
#include "wincni/cni/skel.hpp"
#include "wincni/cni/ip.hpp"

namespace wincni::flannel {

// Root-relative, as in the reference: on Windows they resolve on the
// current drive (C:\run\flannel\subnet.env, C:\var\lib\cni\flannel).
inline constexpr const char* kDefaultSubnetFile = "/run/flannel/subnet.env";
inline constexpr const char* kDefaultDataDir = "/var/lib/cni/flannel";
inline constexpr std::chrono::seconds kDefaultSubnetWait{10};

struct FlannelConfig {
  std::string name;
  std::string cni_version;  // as written; "" when absent
  std::string subnet_file = kDefaultSubnetFile;
  std::string data_dir = kDefaultDataDir;
  // How long ADD waits for subnet.env to appear (subnetFileWaitSeconds).
  std::chrono::milliseconds subnet_wait = kDefaultSubnetWait;
  // The user's delegate object, checked: no name, no ipam, a string type.
  nlohmann::json delegate = nlohmann::json::object();
  nlohmann::json ipam;            // the top-level ipam object, or null
  nlohmann::json runtime_config;  // or null
  nlohmann::json capabilities;    // or null
  // Policy generation (windows_policies.hpp): on when serviceCIDR is set.
  std::vector<cni::IpPrefix> service_networks;  // serviceCIDR as written (ADD refuses host bits), one per family
  std::optional<cni::IpAddress> node_ip;        // nodeIP; else the HNS network's management address
  // Keys nothing reads (a typo), each with the known key it is nearest to.
  std::vector<std::string> warnings;
};

// cni::Error 7 naming the key for anything malformed; the delegate checks
// give the reference's messages.
FlannelConfig read_flannel_config(const cni::NetConf& conf);
// The same for a command, its warnings logged.
FlannelConfig read_flannel_config(const cni::CommandContext& ctx);

}  // namespace wincni::flannel
