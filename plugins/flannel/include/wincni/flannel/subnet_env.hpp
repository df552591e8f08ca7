#pragma once
// flanneld's subnet.env: what the node's lease says (the cluster networks,
// this node's subnets, MTU, whether pods' traffic is masqueraded). flanneld
// writes it once it has a lease and has set up the backend's HNS network,
// so it is also flannel's sign that the node is ready.
//
// Read as the reference plugin reads it (flannel-io/cni-plugin, flannel.go;
// docs/flannel.md): KEY=VALUE lines, keys exact, a trailing CR ignored,
// unknown keys and comments skipped, network lists comma-separated and
// deduplicated, subnets masked to their network, FLANNEL_IPMASQ true only
// for "true", and the same "<path> is missing ..." listing when required
// keys are absent. Unlike the reference, no content crashes it: a known key
// without a value, a prefix of the wrong family or an oversized file is a
// cni::Error 7 naming the line.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wincni/cni/ip.hpp"

namespace wincni::flannel {

struct SubnetEnv {
  std::vector<cni::IpPrefix> networks;       // FLANNEL_NETWORK
  std::optional<cni::IpPrefix> subnet;       // FLANNEL_SUBNET
  std::vector<cni::IpPrefix> ipv6_networks;  // FLANNEL_IPV6_NETWORK
  std::optional<cni::IpPrefix> ipv6_subnet;  // FLANNEL_IPV6_SUBNET
  std::uint32_t mtu = 0;                     // FLANNEL_MTU
  bool ip_masq = false;                      // FLANNEL_IPMASQ
};

// `text` as read from `path` (named in errors).
SubnetEnv parse_subnet_env(std::string_view text, std::string_view path);

// The file at `path`; nullopt when it does not exist. cni::Error 5 when it
// cannot be read (a directory, a FIFO, no permission), 7 when its content
// is not a subnet.env.
std::optional<SubnetEnv> read_subnet_env(const std::string& path);

// read_subnet_env, waiting up to `wait` for the file to appear (flanneld
// writes it when it starts); then cni::Error 11 saying what to check.
SubnetEnv wait_for_subnet_env(const std::string& path, std::chrono::milliseconds wait);

// The message of the code-11 error for a missing file, for STATUS as well.
std::string missing_subnet_env_message(const std::string& path);

}  // namespace wincni::flannel
