#pragma once
// The cluster's own flanneld net-conf.json (kube-flannel.yml's ConfigMap
// kube-flannel-cfg, mounted into the install pod): the pod network, the
// backend and the VNI are read from it instead of being repeated in a
// second ConfigMap that can drift from it, and it is written for the
// Windows flanneld unchanged, so every node runs one file. What flanneld on
// Windows cannot run is refused with the fix: vxlan needs a VNI of 4096 or
// more and port 4789 (the one VXLAN port HNS's Overlay network uses), which
// the Linux nodes' file must then say too (sig-windows-tools' flannel
// guide has kube-flannel-cfg edited so).

#include <cstdint>
#include <string>
#include <vector>

#include "wincni/cni/ip.hpp"
#include "wincni/flannel/windows_policies.hpp"

namespace wincni::installer {

struct ClusterNetConf {
  flannel::Backend backend = flannel::Backend::Vxlan;
  std::uint32_t vni = 0;                        // vxlan only
  std::vector<cni::IpPrefix> cluster_networks;  // Network, and IPv6Network when EnableIPv6
  std::string text;                             // the file as it is
};

// Throws UsageError naming the file and the field.
ClusterNetConf read_cluster_net_conf(const std::string& path);

}  // namespace wincni::installer
