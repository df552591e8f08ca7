#pragma once
// What the engine and its flavors see of HNS's objects, in one shape for both
// APIs (HCN, "apiVersion" 2, and HNS v1). The engine's HNS access fills them
// in from either API's objects; everything else of those objects stays in
// hnsclient.

#include <optional>
#include <string>
#include <vector>

#include "wincni/cni/ip.hpp"
#include "wincni/cni/result.hpp"
#include "wincni/hns/guid.hpp"
#include "wincni/hns/schema/common.hpp"
#include "wincni/hns/schema/policy.hpp"

namespace wincni::engine {

// apiVersion 1: HNS v1 (vmcompute HNSCall) and dockershim's CNI_NETNS
// ("none", "container:<id>"); 2: HCN (computenetwork) and a namespace GUID.
enum class HnsApi { V1 = 1, V2 = 2 };

// The first policy of type T in `policies`, or nullptr.
template <class T>
const T* find_policy(const std::vector<hns::Policy>& policies) {
  for (const hns::Policy& policy : policies) {
    if (const T* typed = policy.as<T>()) return typed;
  }
  return nullptr;
}

struct SubnetView {
  cni::IpPrefix prefix;  // network address
  std::optional<cni::IpAddress> gateway;
  // What HNS keeps out of its own assignments and refuses for endpoints:
  // the gateway (or, without one, the first address).
  std::optional<cni::IpAddress> reserved;
  std::vector<hns::Policy> policies;  // VSID, VLAN
};

struct NetworkView {
  hns::Guid id;
  std::string name;
  hns::NetworkType type = hns::NetworkType::NAT;
  std::vector<SubnetView> subnets;
  std::vector<hns::Policy> policies;  // the network's own: DrMacAddress, VxlanPort, ProviderAddress, ...
  // The host's address on the underlay: HCN's ProviderAddress network
  // policy, else the management address HNS v1 reports (ManagementIP). On
  // HCN the latter takes a v1 query, made for Overlay networks only, where
  // a provider address means something.
  std::optional<cni::IpAddress> provider_address;
  // What the node itself holds on the network (its own endpoint's
  // addresses, EndpointFlavor::host_endpoint), which no pod may be given.
  // Not HNS's data: ADD fills it in from the flavor; empty elsewhere.
  std::vector<cni::IpAddress> host_addresses;

  const SubnetView* subnet_of(const cni::IpAddress& address) const;
  // The first subnet of the family, or nullptr.
  const SubnetView* first_subnet(cni::IpFamily family) const;
};

struct EndpointView {
  hns::Guid id;
  std::string name;
  hns::Guid network;
  std::vector<cni::IpPrefix> addresses;  // one per family at most; prefix length from HNS or the subnet
  std::vector<cni::IpAddress> gateways;  // one per family at most
  std::vector<hns::Route> routes;        // HCN only
  std::string mac;                       // HNS's form: 00-15-5D-..
  std::vector<hns::Policy> policies;
  cni::Dns dns;
  hns::Guid ns;                         // the namespace it is attached to (HCN)
  std::vector<std::string> containers;  // the containers it is attached to (v1)
};

// The node's own endpoint on a network, where it is the pods' way out: on
// L2Bridge the pods leave the node through a vNIC the node has on the
// network, an HNS endpoint attached to the host that holds the pods'
// gateway (flanneld's "cbr0_ep" at .2). A network the engine creates gets
// it; on any network its addresses are never a pod's.
struct HostEndpointPlan {
  std::string name;  // "<network>_ep"
  // At most one per family, with the subnet's length. Empty when no
  // endpoint can hold the pods' gateway (it is the address HNS keeps): then
  // none is created, but one of that name is still the node's.
  std::vector<cni::IpPrefix> addresses;
};

}  // namespace wincni::engine
