// What hnsctl audit and hnsctl doctor report of HNS itself: what a failed
// ADD or DEL leaves behind, and state that does not add up.
//   - an endpoint on a network that no longer exists
//   - an endpoint attached to nothing: no namespace, no container, not the
//     host (a leak: ADD created it and never attached it, or DEL detached it
//     and never deleted it)
//   - an endpoint naming a namespace that is gone, or that does not list it
//   - a namespace listing an endpoint that is gone, or that names another
//   - a load balancer (kube-proxy's) sending to an endpoint that is gone (a
//     note: kube-proxy's next sync replaces it)

#include "audit_findings.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "wincni/engine/own_endpoints.hpp"

namespace wincni::hnsctl {
namespace {

using hns::Guid;

std::string endpoint_label(const hns::HostComputeEndpoint& endpoint) {
  return fmt::format("endpoint {} ({})", endpoint.name, endpoint.id.str());
}

}  // namespace

std::vector<AuditFinding> audit_hns(hns::HnsClient& client) { return audit_hns(client, list_hns(client)); }

std::vector<AuditFinding> audit_hns(hns::HnsClient& client, const HnsListing& hns) {
  std::vector<AuditFinding> findings;
  std::set<Guid> networks;
  for (const auto& network : hns.networks) networks.insert(network.id);
  std::map<Guid, hns::HostComputeNamespace> namespaces;
  for (const auto& ns : hns.namespaces) namespaces.emplace(ns.id, ns);
  std::map<Guid, hns::HostComputeEndpoint> endpoints;
  for (const auto& endpoint : hns.endpoints) endpoints.emplace(endpoint.id, endpoint);

  for (const auto& [id, endpoint] : endpoints) {
    std::string label = endpoint_label(endpoint);
    if (!networks.count(endpoint.host_compute_network)) {
      findings.push_back({label, "its network " + endpoint.host_compute_network.str() + " does not exist"});
    }
    const Guid& ns_id = endpoint.host_compute_namespace;
    if (!ns_id.is_null()) {
      auto ns = namespaces.find(ns_id);
      if (ns == namespaces.end()) {
        findings.push_back({label, "its namespace " + ns_id.str() + " does not exist"});
      } else {
        auto members = ns->second.endpoint_ids();
        if (std::find(members.begin(), members.end(), id) == members.end()) {
          findings.push_back({label, "its namespace " + ns_id.str() + " does not list it"});
        }
      }
      continue;
    }
    if (endpoint.flags & hns::HostComputeEndpoint::kRemoteEndpoint) continue;
    // Container and host attachments show only in the v1 view.
    auto v1 = client.get_hns_endpoint(id);
    bool attached = v1 && (v1->state == hns::EndpointState::Attached ||
                           v1->state == hns::EndpointState::AttachedSharing || !v1->shared_containers.empty());
    if (attached) continue;
    // A host showed State 1 for an attached endpoint
    // (microsoft/Windows-Containers#563): for the host endpoint wincni made,
    // whose attachment an ADD on its network makes good, that is no leak.
    if (v1 && v1->state == hns::EndpointState::Created && engine::is_own_host_endpoint(endpoint)) {
      findings.push_back({label,
                          "wincni's host endpoint, which HNS shows as created, not attached (State 1, which some "
                          "hosts show for an attached one); the next ADD on its network attaches it if it is not",
                          true});
      continue;
    }
    findings.push_back({label, "attached to no namespace, container or host"});
  }

  for (const auto& [ns_id, ns] : namespaces) {
    for (const auto& endpoint_id : ns.endpoint_ids()) {
      std::string label = fmt::format("namespace {}", ns_id.str());
      auto endpoint = endpoints.find(endpoint_id);
      if (endpoint == endpoints.end()) {
        findings.push_back({label, "lists endpoint " + endpoint_id.str() + ", which does not exist"});
      } else if (endpoint->second.host_compute_namespace != ns_id) {
        findings.push_back({label, "lists " + endpoint_label(endpoint->second) + ", which is attached elsewhere"});
      }
    }
  }
  for (const auto& lb : hns.load_balancers) {
    for (const Guid& backend : lb.host_compute_endpoints) {
      if (endpoints.contains(backend)) continue;
      findings.push_back({fmt::format("load balancer {}", lb.id.str()),
                          fmt::format("sends to endpoint {}, which does not exist (kube-proxy replaces it at its next "
                                      "sync; if it stays, restart kube-proxy)",
                                      backend.str()),
                          true});
    }
  }
  if (!hns.load_balancers_unread.empty()) {
    findings.push_back({"load balancers", "not checked: " + hns.load_balancers_unread, true});
  }
  return findings;
}

}  // namespace wincni::hnsctl
