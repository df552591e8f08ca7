#pragma once
// The node's own endpoint on a network, attached to the host, as flanneld
// makes cbr0_ep and OpenShift its source-VIP endpoint.

#include <string>

#include "wincni/cni/ip.hpp"
#include "wincni/hns/client.hpp"

namespace wincni::hnsctl {

// The endpoint `name` on network `network_id` holding `address`, attached to
// the host: reused when it already is that (also when a restart left it
// attached), replaced otherwise.
hns::HnsEndpoint ensure_attached_host_endpoint(hns::HnsClient& client, const hns::Guid& network_id,
                                               const std::string& name, const cni::IpAddress& address);

}  // namespace wincni::hnsctl
