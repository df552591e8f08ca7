#pragma once
// What the engine needs of HNS, in one shape for both APIs: HnsHost has an
// implementation over HCN (apiVersion 2) and one over HNSCall (apiVersion 1),
// both on the typed client, so that ADD/DEL/CHECK/GC are written once. The
// views carry what the engine reads; the rest of HNS's objects stays in
// hnsclient.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "wincni/cni/ip.hpp"
#include "wincni/cni/result.hpp"
#include "wincni/endpoint/endpoint_config.hpp"
#include "wincni/endpoint/policy_assembly.hpp"
#include "wincni/hns/client.hpp"
#include "wincni/hns/schema/common.hpp"

namespace wincni::endpoint {

struct SubnetView {
  cni::IpPrefix prefix;  // network address
  std::optional<cni::IpAddress> gateway;
  // What HNS keeps out of its own assignments and refuses for endpoints:
  // the gateway (or, without one, the first address).
  std::optional<cni::IpAddress> reserved;
};

struct NetworkView {
  hns::Guid id;
  std::string name;
  hns::NetworkType type = hns::NetworkType::NAT;
  std::vector<SubnetView> subnets;
  std::optional<cni::IpAddress> management_ip;  // the host's address on the adapter (v1 only)
  // What the host itself holds on the network (the bridge endpoint's
  // addresses), which no pod may be given. Not HNS's data: ADD fills it in
  // from the flavor (network_locator.hpp); empty elsewhere.
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
  std::vector<hns::Route> routes;        // v2 only
  std::string mac;                       // HNS's form: 00-15-5D-..
  std::vector<hns::Policy> policies;
  cni::Dns dns;
  hns::Guid ns;                         // the namespace it is attached to (v2)
  std::vector<std::string> containers;  // the containers it is attached to (v1)
};

// A route the endpoint carries (v2 only; v1 endpoints have gateways only).
struct EndpointRoute {
  cni::IpPrefix destination;
  cni::IpAddress next_hop;
};

// What to create.
struct EndpointSpec {
  hns::Guid id;
  std::string name;
  hns::Guid network;
  std::vector<cni::IpPrefix> addresses;  // empty: HNS assigns
  std::vector<cni::IpAddress> gateways;
  std::vector<EndpointRoute> routes;     // besides the default routes via `gateways`
  cni::Dns dns;
  std::vector<AssembledPolicy> policies;
  std::string mac;  // "" lets HNS pick from its pool
};

// A network to create: the config's blueprint with the type and the HNS
// gateways the flavor chose, and the ID the plugin chose (endpoint_marker.hpp).
struct NetworkSpec {
  hns::Guid id;
  std::string name;
  hns::NetworkType type = hns::NetworkType::L2Bridge;
  std::string adapter;
  struct Subnet {
    cni::IpPrefix prefix;  // network address
    cni::IpAddress gateway;
  };
  std::vector<Subnet> subnets;
  std::vector<hns::Policy> policies;  // the config's NetworkPolicy entries
  cni::Dns dns;
};

// Where an endpoint is attached: an HCN namespace (containerd), or a
// container (dockershim: the pause container and each one joining it).
struct Attachment {
  std::optional<hns::Guid> ns;
  std::string container;
};

class HnsHost {
 public:
  virtual ~HnsHost() = default;

  virtual HnsApi api() const = 0;
  virtual bool supports(hns::Feature feature) = 0;

  virtual std::optional<NetworkView> find_network(const std::string& name) = 0;
  virtual NetworkView create_network(const NetworkSpec& spec) = 0;
  // false when it was not there.
  virtual bool delete_network(const hns::Guid& id) = 0;

  virtual std::optional<EndpointView> find_endpoint(const std::string& name) = 0;
  virtual std::vector<EndpointView> endpoints_of(const NetworkView& network) = 0;
  virtual EndpointView create_endpoint(const EndpointSpec& spec, const NetworkView& network) = 0;
  // false when it was not there.
  virtual bool delete_endpoint(const hns::Guid& id) = 0;
  // Adds policies to an existing endpoint (what depends on an address HNS
  // only chose when it created the endpoint).
  virtual void add_policies(const EndpointView& endpoint, const std::vector<AssembledPolicy>& policies) = 0;

  virtual bool is_attached(const EndpointView& endpoint, const Attachment& to) const = 0;
  virtual void attach(const EndpointView& endpoint, const Attachment& to) = 0;
  // false when the endpoint or the attachment was not there.
  virtual bool detach(const EndpointView& endpoint, const Attachment& from) = 0;
  // Every attachment the view shows (before deleting it).
  virtual std::vector<Attachment> attachments(const EndpointView& endpoint) const = 0;

  // The host's own vNIC on the network (the bridge endpoint): HNS v1's
  // attach with SystemType "Host", which both APIs reach through HNSCall.
  virtual bool is_host_attached(const EndpointView& endpoint) = 0;
  virtual void attach_host(const EndpointView& endpoint) = 0;
};

std::unique_ptr<HnsHost> make_hns_host(HnsApi api, std::shared_ptr<hns::HnsClient> client);

}  // namespace wincni::endpoint
