#pragma once
// The two config files the installer writes, as text: the runtime's CNI
// config (a flannel conflist whose delegate is win-bridge on host-gw and
// win-overlay on vxlan) and flanneld's net-conf.json. The conflist names no
// OutBoundNAT exception and no route: flannel generates those for every pod
// from serviceCIDR, nodeIP and subnet.env (docs/flannel.md), so the file
// stays right when the cluster network or the node's subnet changes. It is
// read back through flannel's own config reader before it is written.

#include <string>

#include "network_settings.hpp"

namespace wincni::installer {

// Two-space indented JSON ending in a newline, UTF-8 without a byte-order
// mark. Throws cni::Error 7 when flannel would refuse it.
std::string flannel_conflist(const NetworkSettings& network);

// {"Network": ..., "Backend": {...}} as flanneld reads it; IPv6 cluster
// networks go in "IPv6Network" with "EnableIPv6". Only with cluster networks.
std::string flanneld_net_conf(const NetworkSettings& network);

}  // namespace wincni::installer
