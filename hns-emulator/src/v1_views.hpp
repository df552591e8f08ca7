#pragma once
// The HNS v1 view of what the emulator holds in HCN (v2) form, and the v2
// form of what a v1 call posts: real HNS keeps one store and shows it
// through both APIs, and so does the emulator (docs/reference/hns-api.md).

#include <optional>

#include "wincni/cni/ip.hpp"
#include "wincni/hns/schema/hcn.hpp"
#include "wincni/hns/schema/hns_v1.hpp"

namespace wincni::hns {

// What the v1 view shows of a network that v2 holds; `management_ip` is what
// HNS learnt from the host adapter.
HnsNetwork to_v1(const HostComputeNetwork& network, std::optional<cni::IpAddress> management_ip);
HostComputeNetwork to_v2(const HnsNetwork& network);

// `network` is the endpoint's network (its name and subnets fill v1 fields).
HnsEndpoint to_v1(const HostComputeEndpoint& endpoint, const HostComputeNetwork& network);
HostComputeEndpoint to_v2(const HnsEndpoint& endpoint);

HnsNamespace to_v1(const HostComputeNamespace& ns);

}  // namespace wincni::hns
