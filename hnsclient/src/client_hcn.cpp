// HnsClient's HCN (API v2) objects: networks, endpoints, namespaces.

#include "wincni/hns/client.hpp"

#include <fmt/format.h>

#include "client_calls.hpp"
#include "wincni/hns/schema/json_io.hpp"

namespace wincni::hns {

using namespace client_calls;

// --- networks -------------------------------------------------------------------------

std::optional<HostComputeNetwork> HnsClient::find_network_by_name(std::string_view name) {
  auto id = id_by_name(HcnObject::Network, name);
  if (!id) return std::nullopt;
  return find_network(*id);  // empty if it went away in between
}

std::optional<HostComputeNetwork> HnsClient::find_network(const Guid& id) {
  return read_if_there<HostComputeNetwork>(query(HcnObject::Network, id, named("network", id)));
}

std::vector<HostComputeNetwork> HnsClient::list_networks() {
  std::vector<HostComputeNetwork> networks;
  for (const Guid& id : enumerate(HcnObject::Network, Json::object(), "networks")) {
    if (auto network = find_network(id)) networks.push_back(std::move(*network));
  }
  return networks;
}

HostComputeNetwork HnsClient::create_network(const HostComputeNetwork& settings) {
  return create(HcnObject::Network, {}, settings.id, settings.to_json(), quoted("network", settings.name))
      .read<HostComputeNetwork>();
}

bool HnsClient::delete_network(const Guid& id) { return remove(HcnObject::Network, id, named("network", id)); }

void HnsClient::modify_network(const Guid& id, const ModifyRequest& request) {
  if (!modify(HcnObject::Network, id, request.to_json(), named("network", id))) {
    raise(CallOutcome{hr::kNetworkNotFound, {}, {}, "HcnModifyNetwork"}, named("network", id));
  }
}

// --- endpoints ------------------------------------------------------------------------

std::optional<HostComputeEndpoint> HnsClient::find_endpoint_by_name(std::string_view name) {
  auto id = id_by_name(HcnObject::Endpoint, name);
  if (!id) return std::nullopt;
  return find_endpoint(*id);
}

std::optional<HostComputeEndpoint> HnsClient::find_endpoint(const Guid& id) {
  return read_if_there<HostComputeEndpoint>(query(HcnObject::Endpoint, id, named("endpoint", id)));
}

std::vector<HostComputeEndpoint> HnsClient::list_endpoints() {
  std::vector<HostComputeEndpoint> endpoints;
  for (const Guid& id : enumerate(HcnObject::Endpoint, Json::object(), "endpoints")) {
    if (auto endpoint = find_endpoint(id)) endpoints.push_back(std::move(*endpoint));
  }
  return endpoints;
}

std::vector<HostComputeEndpoint> HnsClient::list_endpoints_of_network(const Guid& network) {
  std::vector<HostComputeEndpoint> endpoints;
  // "VirtualNetwork" is the v1 name; HNS takes it in HCN filters too.
  for (const Guid& id : enumerate(HcnObject::Endpoint, Json{{"VirtualNetwork", network.str()}},
                                  "endpoints of " + named("network", network))) {
    if (auto endpoint = find_endpoint(id)) endpoints.push_back(std::move(*endpoint));
  }
  return endpoints;
}

HostComputeEndpoint HnsClient::create_endpoint(const HostComputeEndpoint& settings) {
  std::string object = fmt::format("endpoint \"{}\" on network {}", settings.name, settings.host_compute_network.str());
  return create(HcnObject::Endpoint, settings.host_compute_network, settings.id, settings.to_json(), object)
      .read<HostComputeEndpoint>();
}

bool HnsClient::delete_endpoint(const Guid& id) { return remove(HcnObject::Endpoint, id, named("endpoint", id)); }

void HnsClient::modify_endpoint(const Guid& id, const ModifyRequest& request) {
  if (!modify(HcnObject::Endpoint, id, request.to_json(), named("endpoint", id))) {
    raise(CallOutcome{hr::kEndpointNotFound, {}, {}, "HcnModifyEndpoint"}, named("endpoint", id));
  }
}

// --- namespaces -------------------------------------------------------------------------

HostComputeNamespace HnsClient::create_namespace(const HostComputeNamespace& settings) {
  return create(HcnObject::Namespace, {}, settings.id, settings.to_json(), "a namespace").read<HostComputeNamespace>();
}

std::optional<HostComputeNamespace> HnsClient::find_namespace(const Guid& id) {
  return read_if_there<HostComputeNamespace>(query(HcnObject::Namespace, id, named("namespace", id)));
}

std::vector<HostComputeNamespace> HnsClient::list_namespaces() {
  std::vector<HostComputeNamespace> namespaces;
  for (const Guid& id : enumerate(HcnObject::Namespace, Json::object(), "namespaces")) {
    if (auto ns = find_namespace(id)) namespaces.push_back(std::move(*ns));
  }
  return namespaces;
}

std::optional<HostComputeLoadBalancer> HnsClient::find_load_balancer(const Guid& id) {
  return read_if_there<HostComputeLoadBalancer>(query(HcnObject::LoadBalancer, id, named("load balancer", id)));
}

std::vector<HostComputeLoadBalancer> HnsClient::list_load_balancers() {
  std::vector<HostComputeLoadBalancer> load_balancers;
  for (const Guid& id : enumerate(HcnObject::LoadBalancer, Json::object(), "load balancers")) {
    if (auto lb = find_load_balancer(id)) load_balancers.push_back(std::move(*lb));
  }
  return load_balancers;
}

bool HnsClient::delete_namespace(const Guid& id) { return remove(HcnObject::Namespace, id, named("namespace", id)); }

void HnsClient::attach_to_namespace(const Guid& ns, const Guid& endpoint) {
  std::string object = fmt::format("endpoint {} and namespace {}", endpoint.str(), ns.str());
  auto api = api_;
  std::string text = namespace_endpoint_request(RequestType::Add, endpoint).to_json().dump();
  CallOutcome outcome = call(
      "HcnModifyNamespace",
      [api, ns, text] {
        return with_handle(*api, HcnObject::Namespace, ns, [&](HcnHandle handle) {
          return outcome_of(api->modify(HcnObject::Namespace, handle, text), "HcnModifyNamespace");
        });
      },
      false);
  if (!outcome.ok()) raise(outcome, object);
}

bool HnsClient::detach_from_namespace(const Guid& ns, const Guid& endpoint) {
  std::string object = fmt::format("endpoint {} and namespace {}", endpoint.str(), ns.str());
  auto api = api_;
  std::string text = namespace_endpoint_request(RequestType::Remove, endpoint).to_json().dump();
  CallOutcome outcome = call(
      "HcnModifyNamespace",
      [api, ns, text] {
        return with_handle(*api, HcnObject::Namespace, ns, [&](HcnHandle handle) {
          return outcome_of(api->modify(HcnObject::Namespace, handle, text), "HcnModifyNamespace");
        });
      },
      true);
  if (is_not_found(outcome.hr)) return false;
  if (!outcome.ok()) raise(outcome, object);
  return true;
}

}  // namespace wincni::hns
