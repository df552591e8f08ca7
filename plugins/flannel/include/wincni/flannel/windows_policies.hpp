#pragma once
// The endpoint policies a Windows node needs on flannel's networks, which
// every deployment used to template into the delegate by hand and get wrong
// (docs/flannel.md, "Generated policies"):
//   - OutBoundNAT exceptions for the cluster networks (subnet.env) and the
//     service network, so that pod-to-pod and pod-to-service traffic keeps
//     the pod's address; on host-gw the node's own address too;
//   - an encapsulated route (SDNRoute / v1 ROUTE, NeedEncap) to the service
//     network, so that service traffic goes through the VFP rules
//     kube-proxy programs; on host-gw one to the node's address (/32), so
//     that pods reach their node;
//   - on vxlan, the node's underlay address as ProviderAddress.
// What the user wrote in the delegate's policies is kept; the generated
// policies only add what it does not cover, so nothing appears twice.

#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "wincni/cni/ip.hpp"
#include "wincni/engine/views.hpp"
#include "wincni/hns/schema/policy.hpp"

namespace wincni::flannel {

enum class Backend { HostGw, Vxlan };

struct PolicySources {
  Backend backend = Backend::HostGw;
  std::vector<cni::IpPrefix> cluster_networks;  // FLANNEL_NETWORK, FLANNEL_IPV6_NETWORK
  std::vector<cni::IpPrefix> service_networks;
  std::optional<cni::IpAddress> node_ip;
};

// Every policy the sources call for, in the order above; one OutBoundNAT
// per IP family, as HNS wants them.
std::vector<hns::Policy> generated_policies(const PolicySources& sources);

// Adds to `delegate` the generated policies it does not already have, as
// EndpointPolicy entries rendered for `api`, after its own: in "policies",
// or in "AdditionalArgs" when that is where its policies are. An exception
// or an encapsulated route the delegate lists already is left out, and a
// ProviderAddress is added only when it has none. cni::Error 7 when the
// delegate's own policies do not read.
void merge_generated_policies(nlohmann::json& delegate, const std::vector<hns::Policy>& generated, engine::HnsApi api);

}  // namespace wincni::flannel
