#pragma once
// The CNI result of an ADD, from the endpoint HNS holds: one interface named
// after the endpoint (as the reference plugins name it) with its MAC, every
// address with its family's gateway, a default route per gateway plus the
// endpoint's other routes, and the DNS settings the pod was given.

#include <string>
#include <string_view>

#include "wincni/cni/result.hpp"
#include "hns/hns_access.hpp"

namespace wincni::engine {

cni::Result build_result(const EndpointView& endpoint, const cni::Dns& dns);

// HNS writes MACs "00-15-5D-0A-F4-05"; CNI results (and the "mac"
// capability) use Go's net.HardwareAddr form, "00:15:5d:0a:f4:05". A MAC
// HNS writes in some other way is passed on as it is.
std::string cni_mac(std::string_view hns_mac);

}  // namespace wincni::engine
