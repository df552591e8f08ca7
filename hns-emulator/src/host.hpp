#pragma once
// The emulated HNS itself: what each operation does to the store, with the
// validation real HNS does and the HRESULT it answers with (HcnFailure).
// It knows nothing of JSON text, handles, locks or the two call styles;
// v2_api.cpp and v1_api.cpp translate those onto it.

#include <optional>
#include <vector>

#include "state.hpp"
#include "wincni/hns/emulator/emulator.hpp"
#include "wincni/hns/features.hpp"
#include "wincni/hns/schema/hcn.hpp"
#include "wincni/hns/schema/hns_v1.hpp"

namespace wincni::hns::emulator {

// The ID of an object being created (object_id.cpp): HcnCreate*'s Id
// parameter when it is not null (HCN's documented way: "a non-null GUID is
// used as given"), else the ID in the settings, else a new one. When both
// name one they must agree: E_INVALIDARG naming both, rather than one of them
// silently winning, so that a client cannot believe an object has the ID it
// asked for when it has not.
Guid new_object_id(const Guid& parameter, const Guid& in_settings);

// How strict this host is where Windows versions differ (EmulatorConfig).
struct HostRules {
  bool refuse_prefix_host_bits = false;
  PickOrder picks = PickOrder::Lowest;
  std::optional<HResult> duplicate_code;           // EmulatorConfig::duplicate_code
  bool filter_either_schema = false;               // EmulatorConfig::filter_either_schema
  bool namespace_delete_leaves_reference = false;  // EmulatorConfig::namespace_delete_leaves_reference
  bool default_namespace = false;                  // EmulatorConfig::default_namespace
  bool attached_reads_created = false;             // EmulatorConfig::attached_reads_created
  bool encap_overhead = false;                     // EmulatorConfig::encap_overhead
  bool v1_posted_id_ignored = false;               // EmulatorConfig::v1_posted_id_ignored
};

// The default namespace real hosts list without anyone creating it
// (projectcalico/calico issue 8465: IsDefault, compartment 1), with an ID of
// the emulator's; put back on every call when EmulatorConfig asks for it.
inline const Guid kHostDefaultNamespaceId = *Guid::parse("D3FA017E-0000-4000-8000-000000000001");
void add_host_default_namespace(EmulatorState& state);

class Host {
 public:
  Host(EmulatorState& state, HnsVersion version, HostRules rules = {})
      : state_(state), version_(version), rules_(rules) {}

  HnsVersion version() const { return version_; }
  const HostRules& rules() const { return rules_; }
  EmulatorState& state() { return state_; }

  // --- networks (host_networks.cpp) ---
  // `id` null: HNS makes one up (or takes the settings' ID).
  const NetworkRecord& create_network(HostComputeNetwork request, Guid id);
  // Deletes the network's endpoints with it.
  void delete_network(const Guid& id);
  void modify_network(const Guid& id, const ModifyRequest& request);
  // HCN_E_NETWORK_NOT_FOUND when missing.
  NetworkRecord& network(const Guid& id);

  // --- endpoints (host_endpoints.cpp) ---
  const EndpointRecord& create_endpoint(const Guid& network_id, HostComputeEndpoint request, Guid id);
  void delete_endpoint(const Guid& id);
  void modify_endpoint(const Guid& id, const ModifyRequest& request);
  // v1 POST /endpoints/<id>: the object as a whole; HNS takes its policies.
  void update_endpoint_policies(const Guid& id, std::vector<Policy> policies);
  // v1 /endpoints/<id>/attach and /detach.
  void attach_endpoint(const Guid& id, const EndpointAttachRequest& request);
  void detach_endpoint(const Guid& id, const EndpointAttachRequest& request);
  // HCN_E_ENDPOINT_NOT_FOUND when missing.
  EndpointRecord& endpoint(const Guid& id);

  // --- namespaces (host_namespaces.cpp) ---
  const HostComputeNamespace& create_namespace(HostComputeNamespace request, Guid id);
  // Detaches the namespace's endpoints first.
  void delete_namespace(const Guid& id);
  void modify_namespace(const Guid& id, const ModifyRequest& request);
  void add_namespace_endpoint(const Guid& ns_id, const Guid& endpoint_id);
  void remove_namespace_endpoint(const Guid& ns_id, const Guid& endpoint_id);
  // ERROR_NOT_FOUND (0x80070490, "Element not found.") when missing.
  HostComputeNamespace& namespace_(const Guid& id);

  // --- load balancers (host_load_balancers.cpp) ---
  const HostComputeLoadBalancer& create_load_balancer(HostComputeLoadBalancer request, Guid id);
  // The whole load balancer as it is to be (HNS 15.4 and later).
  void modify_load_balancer(const Guid& id, const Json& settings);
  void delete_load_balancer(const Guid& id);
  // ERROR_NOT_FOUND when missing.
  HostComputeLoadBalancer& load_balancer(const Guid& id);

  // --- SDN routes (host_sdn_routes.cpp) ---
  const HostComputeRoute& create_sdn_route(HostComputeRoute request, Guid id);
  void delete_sdn_route(const Guid& id);
  // ERROR_NOT_FOUND when missing.
  HostComputeRoute& sdn_route(const Guid& id);

  // --- compute systems (host_compute_systems.cpp): HCS, not HNS ---
  // HCS_E_SYSTEM_ALREADY_EXISTS when the ID is taken.
  void create_compute_system(const std::string& id, const Json& configuration);
  // HCS_E_SYSTEM_NOT_FOUND when there is none with that ID.
  ComputeSystemRecord& compute_system(std::string_view id);
  // hcsshim's schema1 request {"ResourceType":"Network","RequestType":"Add"
  // or "Remove","Settings":"<endpoint ID>"}: the endpoint's vNIC goes into
  // (out of) the container, and HNS lists (stops listing) the container
  // among the endpoint's SharedContainers, which is how hcsshim's
  // IsAttached sees a hot-added endpoint.
  void modify_compute_system(std::string_view id, const Json& request);
  // The container stops and HCS forgets it; its vNICs go with it.
  void terminate_compute_system(std::string_view id);
  Json compute_system_properties(const ComputeSystemRecord& system) const;

  // --- views (host_views.cpp) ---
  Json network_v2(const NetworkRecord& record) const;
  HnsNetwork network_v1(const NetworkRecord& record) const;
  Json endpoint_v2(const EndpointRecord& record) const;
  HnsEndpoint endpoint_v1(const EndpointRecord& record) const;
  Json namespace_v2(const HostComputeNamespace& ns) const;
  HnsNamespace namespace_v1(const HostComputeNamespace& ns) const;

  // --- policy rules (host_policies.cpp) ---
  // Unknown, misplaced or unsupported types -> HCN_E_INVALID_POLICY_TYPE;
  // unusable settings -> HCN_E_INVALID_POLICY.
  void check_policies(const std::vector<Policy>& policies, unsigned scope) const;
  // Port mappings of endpoint `endpoint_id` on `network_id`: internal port 0
  // -> HCN_E_INVALID_INTERNAL_PORT; the same protocol, external port and VIP
  // twice on the network -> HCN_E_PORT_ALREADY_EXISTS.
  void check_port_mappings(const Guid& network_id, const Guid& endpoint_id, const std::vector<Policy>& policies) const;
  // A modify request's Remove: each policy must be present (else
  // HCN_E_POLICY_NOT_FOUND) and is taken out once.
  static void remove_policies(std::vector<Policy>& current, const std::vector<Policy>& policies);

 private:
  void check_load_balancer(const HostComputeLoadBalancer& lb);
  EmulatorState& state_;
  HnsVersion version_;
  HostRules rules_;
};

}  // namespace wincni::hns::emulator
