#pragma once
// The CNI result of an ADD, from the endpoint HNS holds: the pod's interface
// (CNI_IFNAME, in its sandbox, with the endpoint's MAC), which every address
// points at with its family's gateway; the HNS endpoint itself as a host
// interface, so that an operator reading the runtime's cached result finds
// its name; a default route per gateway plus the endpoint's other routes; the
// DNS settings the pod was given. Why this shape, and what runtimes do with
// it: docs/reference/cni-protocol.md, "The result's interfaces".

#include <string>
#include <string_view>

#include "wincni/cni/result.hpp"
#include "hns/hns_access.hpp"

namespace wincni::engine {

// Where the pod's interface is: the name the runtime gave it (CNI_IFNAME)
// and its sandbox (the HCN namespace, or dockershim's container).
struct PodInterface {
  std::string name;
  std::string sandbox;
};

cni::Result build_result(const EndpointView& endpoint, const PodInterface& pod, const cni::Dns& dns);

// HNS writes MACs "00-15-5D-0A-F4-05"; CNI results (and the "mac"
// capability) use Go's net.HardwareAddr form, "00:15:5d:0a:f4:05". A MAC
// HNS writes in some other way is passed on as it is.
std::string cni_mac(std::string_view hns_mac);

}  // namespace wincni::engine
