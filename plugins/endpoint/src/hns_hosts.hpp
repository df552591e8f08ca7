#pragma once
// The two HnsHost implementations (hns_host_v1.cpp, hns_host_v2.cpp) and the
// pieces they share.

#include <memory>

#include "wincni/endpoint/hns_host.hpp"

namespace wincni::endpoint {

std::unique_ptr<HnsHost> make_v1_host(std::shared_ptr<hns::HnsClient> client);
std::unique_ptr<HnsHost> make_v2_host(std::shared_ptr<hns::HnsClient> client);

// A subnet as the engine sees it; `do_not_reserve` is HCN's
// DoNotReserveGatewayAddress.
SubnetView subnet_view(const cni::IpPrefix& prefix, std::optional<cni::IpAddress> gateway, bool do_not_reserve);

// `address` with the prefix length HNS reported, or the length of the
// network subnet holding it when HNS reported none.
cni::IpPrefix with_prefix_length(const cni::IpAddress& address, int length, const NetworkView* network);

cni::Dns to_cni_dns(const hns::Dns& dns);
hns::Dns to_hns_dns(const cni::Dns& dns);

std::vector<hns::Policy> typed_policies(const std::vector<AssembledPolicy>& policies);

// Whether the endpoint is the host's vNIC: only HNS v1's view says so (state
// Attached with no container and no namespace), on either API.
bool is_host_attached(hns::HnsClient& client, const hns::Guid& endpoint);

}  // namespace wincni::endpoint
