#pragma once
// The config flannel hands its delegate (docs/flannel.md, "The delegate"):
// the user's delegate object with what subnet.env says filled in.
//   - type: the user's, else win-bridge; name and cniVersion: flannel's
//     (cniVersion "0.2.0" when flannel's config has none, as the reference);
//   - ipMasq and ipMasqNetwork: FLANNEL_IPMASQ and the first IPv4 cluster
//     network, unless the user set them;
//   - ipam: the top-level ipam object (unknown keys kept, type host-local by
//     default) with one range set per family of this node's subnets (IPv6
//     on host-gw only: HNS overlays carry IPv4), on host-gw starting at .3
//     so that no pod gets flanneld's bridge endpoint at .2, and routes: the
//     user's, then one to each cluster network;
//   - runtimeConfig and capabilities: flannel's, which the runtime filled in;
//   - apiVersion and every other key: the user's, untouched.
// The generated Windows policies (windows_policies.hpp) are merged in by
// ADD, which alone needs the node's address for them.

#include <string>

#include <nlohmann/json.hpp>

#include "wincni/flannel/flannel_config.hpp"
#include "wincni/flannel/subnet_env.hpp"
#include "wincni/flannel/windows_policies.hpp"

namespace wincni::flannel {

std::string delegate_type(const FlannelConfig& config);

// win-overlay (or Microsoft's sdnoverlay) means the vxlan backend; anything
// else puts pods on host-gw's L2Bridge network.
Backend backend_of(const FlannelConfig& config);

// cni::Error 7 when subnet.env has no subnet the backend can carry, or the
// user's ipam.routes do not read.
nlohmann::json delegate_config(const FlannelConfig& config, const SubnetEnv& env);

// The sources of the generated policies; node_ip as found by the caller.
PolicySources policy_sources(const FlannelConfig& config, const SubnetEnv& env);

}  // namespace wincni::flannel
