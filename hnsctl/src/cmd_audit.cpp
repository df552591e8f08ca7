// hnsctl audit: what a failed ADD or DEL leaves behind, and state that does
// not add up. Exit 1 when it finds anything.
//   - an endpoint on a network that no longer exists
//   - an endpoint attached to nothing: no namespace, no container, not the
//     host (a leak: ADD created it and never attached it, or DEL detached it
//     and never deleted it)
//   - an endpoint naming a namespace that is gone, or that does not list it
//   - a namespace listing an endpoint that is gone, or that names another

#include <map>
#include <set>

#include <fmt/format.h>

#include "commands.hpp"

namespace wincni::hnsctl {
namespace {

using hns::Guid;

struct Finding {
  std::string object;
  std::string problem;
};

std::string endpoint_label(const hns::HostComputeEndpoint& endpoint) {
  return fmt::format("endpoint {} ({})", endpoint.name, endpoint.id.str());
}

std::vector<Finding> audit(hns::HnsClient& client) {
  std::vector<Finding> findings;
  std::set<Guid> networks;
  for (const auto& network : client.list_networks()) networks.insert(network.id);
  std::map<Guid, hns::HostComputeNamespace> namespaces;
  for (auto& ns : client.list_namespaces()) namespaces.emplace(ns.id, std::move(ns));
  std::map<Guid, hns::HostComputeEndpoint> endpoints;
  for (auto& endpoint : client.list_endpoints()) endpoints.emplace(endpoint.id, std::move(endpoint));

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
    if (!attached) findings.push_back({label, "attached to no namespace, container or host"});
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
  return findings;
}

}  // namespace

int audit_run(Context& context, const Args& args) {
  cxxopts::Options options("hnsctl audit",
                           "Look for leaked or inconsistent HNS objects (endpoints attached to nothing, namespaces "
                           "that no longer hold their endpoints, ...); exit 1 when anything is found");
  options.add_options()("json", "Print the findings as a JSON array");
  auto parsed = parse_options(options, args, context.out);
  if (!parsed) return kOk;
  std::vector<Finding> findings = audit(context.client);
  if (parsed->count("json")) {
    hns::Json all = hns::Json::array();
    for (const auto& finding : findings) all.push_back({{"Object", finding.object}, {"Problem", finding.problem}});
    context.out << all.dump(2) << '\n';
  } else if (findings.empty()) {
    context.out << "no problems found\n";
  } else {
    for (const auto& finding : findings) context.out << finding.object << ": " << finding.problem << '\n';
  }
  return findings.empty() ? kOk : kFailed;
}

}  // namespace wincni::hnsctl
