#pragma once
// The node's own address, which the generated policies need when the
// config does not give it (nodeIP): the management address HNS reports for
// the network flanneld made, which is the address of the adapter it is
// bound to (both backends).

#include <functional>
#include <memory>
#include <string>

#include "wincni/cni/ip.hpp"
#include "wincni/hns/seam.hpp"

namespace wincni::flannel {

// Where HNS is: hns::default_backend() unless a test hands in its own.
using HnsBackend = std::function<std::shared_ptr<hns::HcnApi>()>;

// cni::Error 11 when the network is not there yet (flanneld creates it
// before it writes subnet.env, so this is a short race or a wrong name),
// 7 when HNS reports no management address for it.
cni::IpAddress node_address(const std::string& network, const HnsBackend& backend);

}  // namespace wincni::flannel
