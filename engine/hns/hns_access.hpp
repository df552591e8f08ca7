#pragma once
// The engine's access to HNS, in one shape for both APIs: HnsAccess has an
// implementation over HCN (apiVersion 2) and one over HNSCall (apiVersion 1),
// both on the typed client (hnsclient), so that ADD/DEL/CHECK/GC are written
// once. It speaks in the engine's views (views.hpp) and HNS's own policy
// model; what the planner made of a config is already hns::Policy when it
// gets here, and whether an API can carry it was decided by the planner.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "wincni/cni/ip.hpp"
#include "wincni/cni/result.hpp"
#include "wincni/engine/views.hpp"
#include "wincni/hns/client.hpp"
#include "wincni/hns/schema/common.hpp"
#include "wincni/hns/schema/policy.hpp"

namespace wincni::engine {

// A route the endpoint carries (HCN only; v1 endpoints have gateways only).
struct EndpointRoute {
  cni::IpPrefix destination;
  cni::IpAddress next_hop;
};

// An endpoint to create.
struct EndpointSpec {
  hns::Guid id;
  std::string name;
  hns::Guid network;
  std::vector<cni::IpPrefix> addresses;  // empty: HNS assigns
  std::vector<cni::IpAddress> gateways;
  std::vector<EndpointRoute> routes;  // besides the default routes via `gateways`
  cni::Dns dns;
  std::vector<hns::Policy> policies;
  std::string mac;  // "" lets HNS pick from its pool
};

// A network to create: the config's blueprint with the type and the HNS
// gateways the flavor chose, and the ID the engine chose (endpoint_marker.hpp).
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
  std::vector<hns::Policy> policies;         // the config's NetworkPolicy entries, then the flavor's
  std::vector<hns::Policy> subnet_policies;  // on every subnet
  // HCN's EnableNonPersistent. HNS v1 has no flags: such a network is
  // created through HCN whatever API the invocation uses, as flanneld does.
  bool non_persistent = false;
  cni::Dns dns;
};

// Where an endpoint is attached: an HCN namespace (containerd), or a
// container (dockershim: the pause container and each one joining it).
struct Attachment {
  std::optional<hns::Guid> ns;
  std::string container;
};

// What HNS shows of the sandbox an endpoint serves: its namespace (or, on
// v1, a container it is attached to) still exists; each one it names is
// gone; it is attached to nothing.
enum class Occupancy { Live, Gone, Unattached };

class HnsAccess {
 public:
  virtual ~HnsAccess() = default;

  virtual HnsApi api() const = 0;
  // How HNS is called: the limit of one call, and the deadline of all.
  virtual const hns::CallPolicy& call_policy() const = 0;
  virtual bool supports(hns::Feature feature) = 0;
  virtual hns::HnsVersion version() = 0;

  virtual std::optional<NetworkView> find_network(const std::string& name) = 0;
  // Every network HNS has, by ID, name and type only (for messages).
  virtual std::vector<NetworkView> list_networks() = 0;
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
  virtual void add_policies(const EndpointView& endpoint, const std::vector<hns::Policy>& policies) = 0;

  virtual bool is_attached(const EndpointView& endpoint, const Attachment& to) const = 0;
  virtual void attach(const EndpointView& endpoint, const Attachment& to) = 0;
  // false when the endpoint or the attachment was not there.
  virtual bool detach(const EndpointView& endpoint, const Attachment& from) = 0;
  // Every attachment the view shows (before deleting it).
  virtual std::vector<Attachment> attachments(const EndpointView& endpoint) const = 0;
  // Asks HNS (or HCS, for v1's containers) whether what the view's
  // attachments name still exists.
  virtual Occupancy occupancy(const EndpointView& endpoint) = 0;

  // The node's own vNIC on the network (EndpointFlavor::host_endpoint): HNS
  // v1's attach with SystemType "Host", which both APIs reach through HNSCall.
  virtual bool is_host_attached(const EndpointView& endpoint) = 0;
  virtual void attach_host(const EndpointView& endpoint) = 0;
};

std::unique_ptr<HnsAccess> make_hns_access(HnsApi api, std::shared_ptr<hns::HnsClient> client);

}  // namespace wincni::engine
