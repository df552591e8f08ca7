#pragma once
// The two HnsAccess implementations (hns_access_v1.cpp, hns_access_v2.cpp)
// and the pieces they share.

#include <memory>

#include "hns/hns_access.hpp"

namespace wincni::engine {

std::unique_ptr<HnsAccess> make_v1_access(std::shared_ptr<hns::HnsClient> client);
std::unique_ptr<HnsAccess> make_v2_access(std::shared_ptr<hns::HnsClient> client);

// A subnet as the engine sees it; `do_not_reserve` is HCN's
// DoNotReserveGatewayAddress.
SubnetView subnet_view(const cni::IpPrefix& prefix, std::optional<cni::IpAddress> gateway, bool do_not_reserve,
                       std::vector<hns::Policy> policies);

// The ProviderAddress among a network's policies, when it holds an address.
std::optional<cni::IpAddress> provider_address_policy(const std::vector<hns::Policy>& policies);

// `address` with the prefix length HNS reported, or the length of the
// network subnet holding it when HNS reported none.
cni::IpPrefix with_prefix_length(const cni::IpAddress& address, int length, const NetworkView* network);

cni::Dns to_cni_dns(const hns::Dns& dns);
hns::Dns to_hns_dns(const cni::Dns& dns);

hns::Route hns_route(const cni::IpPrefix& destination, const cni::IpAddress& next_hop);

// The HCN settings that create `spec`'s network: HCN v2 creates every
// network with them, HNS v1 those that need HCN's flags.
hns::HostComputeNetwork hcn_network_settings(const NetworkSpec& spec);
// The same for an endpoint: HCN v2 creates every endpoint with them, HNS v1
// those it would not create under the engine's ID (hns_access_v1.cpp).
hns::HostComputeEndpoint hcn_endpoint_settings(const EndpointSpec& spec);

// What both implementations do the same way, through the typed client.
class ClientAccess : public HnsAccess {
 public:
  explicit ClientAccess(std::shared_ptr<hns::HnsClient> client) : client_(std::move(client)) {}

  const hns::CallPolicy& call_policy() const override { return client_->policy(); }
  bool supports(hns::Feature feature) override { return client_->supports(feature); }
  hns::HnsVersion version() override { return client_->version(); }
  // Through HCN where HNS has it, else v1: both list every network.
  std::vector<NetworkView> list_networks() override;
  // Only HNS v1's view says whether an endpoint is the node's vNIC (state
  // Attached with no container and no namespace), and HCN has no call for
  // attaching one: both APIs go through HNSCall for it.
  bool is_host_attached(const EndpointView& endpoint) override;
  // Through both views: an endpoint attached through one API (a containerd
  // pod's namespace, a dockershim pod's containers) shows none of it in the
  // other's view, and a node may run both kinds of pod on one network.
  Occupancy occupancy(const EndpointView& endpoint) override;
  void attach_host(const EndpointView& endpoint) override { client_->attach_host(endpoint.id); }

 protected:
  std::shared_ptr<hns::HnsClient> client_;
};

}  // namespace wincni::engine
