#pragma once
// The typed HNS client, over any HcnApi (the real DLLs on Windows, the
// emulator on Linux). Every call has a timeout and transient failures are
// retried (call_policy.hpp); failures raise HnsError (hns_error.hpp), while
// "not there" is an empty optional or `false`, never an exception.
//
// Lookups by name go through HNS's server-side Filter ({"Name":...}), never
// list-everything-then-match. The v1 lookups do the same through HCN when
// HNS has it (9.2 on), and only on older hosts list and match.
//
// Attaching: containerd-era nodes (CNI "apiVersion": 2) attach an endpoint
// to the pod's HCN namespace (attach_to_namespace, HcnModifyNamespace).
// dockershim-era nodes (HNS v1) attach it to the running container itself,
// through HCS (hot_attach: HcsModifyComputeSystem), as the reference plugins
// do; HNS then lists the container among the endpoint's SharedContainers.
// attach_container is HNS's POST /endpoints/<id>/attach, kept for hnsctl
// and for what other software left attached that way (docs/engine.md).
//
// An answer the client cannot read (not JSON, not the shape the schema
// says) raises HnsError(HCN_E_INVALID_JSON) naming the operation and the
// object and quoting the answer (at most 512 bytes of it), whatever the call.

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wincni/hns/call_policy.hpp"
#include "wincni/hns/features.hpp"
#include "wincni/hns/hns_error.hpp"
#include "wincni/hns/schema/hcn.hpp"
#include "wincni/hns/schema/hns_v1.hpp"
#include "wincni/hns/seam.hpp"

namespace wincni::hns {

class HnsAnswer;  // src/hns_answer.hpp

class HnsClient {
 public:
  explicit HnsClient(std::shared_ptr<HcnApi> api, CallPolicy policy = CallPolicy::from_environment());

  // How its calls are made (their limits, the deadline).
  const CallPolicy& policy() const { return policy_; }

  // --- version (GET /globals/version, asked once) ---
  HnsVersion version();
  bool supports(Feature feature);

  // --- HCN networks ---
  std::optional<HostComputeNetwork> find_network_by_name(std::string_view name);
  std::optional<HostComputeNetwork> find_network(const Guid& id);
  std::vector<HostComputeNetwork> list_networks();
  // HNS assigns the ID when settings.id is null.
  HostComputeNetwork create_network(const HostComputeNetwork& settings);
  bool delete_network(const Guid& id);
  void modify_network(const Guid& id, const ModifyRequest& request);

  // --- HCN endpoints ---
  std::optional<HostComputeEndpoint> find_endpoint_by_name(std::string_view name);
  std::optional<HostComputeEndpoint> find_endpoint(const Guid& id);
  std::vector<HostComputeEndpoint> list_endpoints();
  std::vector<HostComputeEndpoint> list_endpoints_of_network(const Guid& network);
  // On the network settings.host_compute_network names.
  HostComputeEndpoint create_endpoint(const HostComputeEndpoint& settings);
  bool delete_endpoint(const Guid& id);
  void modify_endpoint(const Guid& id, const ModifyRequest& request);

  // --- HCN namespaces ---
  HostComputeNamespace create_namespace(const HostComputeNamespace& settings = {});
  std::optional<HostComputeNamespace> find_namespace(const Guid& id);
  std::vector<HostComputeNamespace> list_namespaces();

  // Load balancers (kube-proxy's, one per service frontend): read only.
  std::optional<HostComputeLoadBalancer> find_load_balancer(const Guid& id);
  std::vector<HostComputeLoadBalancer> list_load_balancers();
  bool delete_namespace(const Guid& id);
  // HCN_E_ENDPOINT_ALREADY_ATTACHED etc. raise; a second attach to the same
  // namespace is an error, as in HNS.
  void attach_to_namespace(const Guid& ns, const Guid& endpoint);
  // false when the namespace, the endpoint or the attachment is gone.
  bool detach_from_namespace(const Guid& ns, const Guid& endpoint);

  // --- HNS v1 (HNSCall) ---
  std::optional<HnsNetwork> find_hns_network_by_name(std::string_view name);
  std::optional<HnsNetwork> get_hns_network(const Guid& id);
  std::vector<HnsNetwork> list_hns_networks();
  HnsNetwork create_hns_network(const HnsNetwork& settings);
  bool delete_hns_network(const Guid& id);
  std::optional<HnsEndpoint> find_hns_endpoint_by_name(std::string_view name);
  std::optional<HnsEndpoint> get_hns_endpoint(const Guid& id);
  std::vector<HnsEndpoint> list_hns_endpoints();
  HnsEndpoint create_hns_endpoint(const HnsEndpoint& settings);
  // v1's update, as hcsshim's HNSEndpoint.Update does it: POST
  // /endpoints/<id> with the whole endpoint (HNS takes its policies); the
  // answer is the endpoint as HNS now has it. Posting the same object twice
  // changes nothing more, so it is retried as reads are. A missing endpoint
  // raises HCN_E_ENDPOINT_NOT_FOUND.
  HnsEndpoint update_hns_endpoint(const HnsEndpoint& endpoint);
  bool delete_hns_endpoint(const Guid& id);
  void attach_container(const Guid& endpoint, const std::string& container_id);
  bool detach_container(const Guid& endpoint, const std::string& container_id);
  // The host's own vNIC on the network (flanneld's <net>_ep): `compartment`
  // 1 is the host.
  void attach_host(const Guid& endpoint, std::uint16_t compartment = 1);
  bool detach_host(const Guid& endpoint);
  std::optional<HnsNamespace> get_hns_namespace(const Guid& id);

  // --- HCS compute systems (client_compute_systems.cpp) ---
  // Hot-adds the endpoint's vNIC to the running container `container_id`
  // (open, modify {"ResourceType":"Network","RequestType":"Add"}, close).
  // A container HCS does not know raises HCS_E_SYSTEM_NOT_FOUND
  // (is_compute_system_missing); one that already has the endpoint
  // (HCN_E_ENDPOINT_ALREADY_ATTACHED) is success.
  void hot_attach(const std::string& container_id, const Guid& endpoint);
  // false when there was nothing to take out: the container is gone (its
  // vNICs went with it) or the endpoint is not in it.
  bool hot_detach(const std::string& container_id, const Guid& endpoint);
  // What a runtime does around a container's life (hnsctl, tests).
  void create_compute_system(const std::string& id, const Json& configuration);
  bool terminate_compute_system(const std::string& id);
  std::optional<Json> compute_system_properties(const std::string& id);

  HcnApi& api() { return *api_; }

 private:
  // `operation` names what the work could not name itself: a timeout, an
  // exception out of the seam.
  CallOutcome call(const std::string& operation, const std::function<CallOutcome()>& work, bool idempotent);
  [[noreturn]] void raise(const CallOutcome& outcome, const std::string& object);

  std::vector<Guid> enumerate(HcnObject kind, const Json& filter, const std::string& object);
  std::optional<HnsAnswer> query(HcnObject kind, const Guid& id, const std::string& object);
  // `id` goes to HcnCreate*'s Id parameter, the documented way to choose an
  // object's ID (as well as in `settings`, where hcsshim puts it); null lets
  // HNS choose. The answer is the created object's properties.
  HnsAnswer create(HcnObject kind, const Guid& network, const Guid& id, const Json& settings,
                   const std::string& object);
  bool remove(HcnObject kind, const Guid& id, const std::string& object);
  // false when the object is not there.
  bool modify(HcnObject kind, const Guid& id, const Json& settings, const std::string& object);

  // An object a v1 request needs, and the list HNS keeps it in
  // ("/endpoints/"). HNS answers a miss with {"Success":false} and a text in
  // the host's language, the same shape as a refusal; whether the object is
  // still listed tells the two apart.
  struct V1Subject {
    std::string collection;
    Guid id;
  };
  // GET/POST/DELETE through HNSCall; the envelope's Output. nullopt when HNS
  // answers "not found" by code, or {"Success":false} while `subject` is not
  // listed.
  std::optional<HnsAnswer> hns_request(const std::string& method, const std::string& path, const std::string& body,
                                       const std::string& object, bool idempotent,
                                       const std::optional<V1Subject>& subject = std::nullopt);
  bool is_listed(const V1Subject& subject);
  std::optional<Guid> id_by_name(HcnObject kind, std::string_view name);
  // POST /endpoints/<id>/attach or /detach; false when the endpoint is gone
  // (a missing endpoint on attach raises).
  bool post_attachment(const Guid& endpoint, const EndpointAttachRequest& request, bool attach,
                       const std::string& object);

  std::shared_ptr<HcnApi> api_;
  CallPolicy policy_;
  std::optional<HnsVersion> version_;
};

}  // namespace wincni::hns
