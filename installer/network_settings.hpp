#pragma once
// The cluster facts the node's CNI config and flanneld's net-conf.json are
// written from.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "wincni/cni/ip.hpp"
#include "wincni/flannel/windows_policies.hpp"

namespace wincni::installer {

inline constexpr std::uint32_t kDefaultVni = 4096;

struct NetworkSettings {
  flannel::Backend backend = flannel::Backend::Vxlan;
  std::uint32_t vni = kDefaultVni;
  // flanneld's HNS network: "cbr0" on host-gw, "flannel.<VNI>" on vxlan
  // unless given.
  std::string network_name;
  std::vector<cni::IpPrefix> service_networks;  // one per family
  std::vector<cni::IpPrefix> cluster_networks;  // empty: net-conf.json is not written
  std::optional<cni::IpAddress> node_ip;
  std::vector<cni::IpAddress> dns_servers;  // the cluster DNS service
  std::string dns_domain = "cluster.local";
  // The cluster's own net-conf.json (--net-conf), written for flanneld as it
  // is; "" when net-conf.json is made from the settings above.
  std::string flanneld_net_conf;
};

// The network name flanneld gives the backend's HNS network.
std::string flanneld_network_name(flannel::Backend backend, std::uint32_t vni);

}  // namespace wincni::installer
