#include "wincni/flannel/node_address.hpp"

#include <fmt/format.h>

#include "wincni/cni/error.hpp"
#include "wincni/hns/backend.hpp"
#include "wincni/hns/client.hpp"

namespace wincni::flannel {

cni::IpAddress node_address(const std::string& network, const HnsBackend& backend) {
  hns::HnsClient client(backend ? backend() : hns::default_backend());
  // HNS v1's view: HCN shows no management address (docs/reference/hns-api.md).
  const auto found = client.find_hns_network_by_name(network);
  if (!found) {
    throw cni::Error(cni::kTryAgainLater,
                     fmt::format("HNS network \"{}\" not found, so the node's address for the generated policies is "
                                 "unknown: flanneld creates the network before it writes subnet.env; check that the "
                                 "config's name is flanneld's network, or set nodeIP",
                                 network));
  }
  if (!found->management_ip) {
    throw cni::Error(cni::kInvalidNetworkConfig,
                     fmt::format("HNS network \"{}\" has no management address to take the node's address from: "
                                 "set nodeIP",
                                 network));
  }
  return *found->management_ip;
}

}  // namespace wincni::flannel
