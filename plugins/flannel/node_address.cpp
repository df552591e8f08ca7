#include "wincni/flannel/node_address.hpp"

#include <fmt/format.h>

#include "wincni/cni/error.hpp"
#include "wincni/engine/network_listing.hpp"
#include "wincni/hns/backend.hpp"
#include "wincni/hns/client.hpp"

namespace wincni::flannel {

cni::IpAddress node_address(const std::string& network, const HnsBackend& backend) {
  const auto shared = std::make_shared<hns::HnsClient>(backend ? backend() : hns::default_backend());
  hns::HnsClient& client = *shared;
  // HNS v1's view: HCN shows no management address (docs/reference/hns-api.md).
  const auto found = client.find_hns_network_by_name(network);
  if (!found) {
    throw cni::Error(cni::kTryAgainLater,
                     fmt::format("HNS network \"{}\" not found: flanneld creates it before it writes subnet.env; "
                                 "check that flanneld runs and that the config's name is the network flanneld "
                                 "made{}",
                                 network, engine::networks_hns_has(shared)));
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
