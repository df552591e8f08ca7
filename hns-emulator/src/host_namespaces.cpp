#include <algorithm>

#include "failure.hpp"
#include "host.hpp"
#include "wincni/cni/json_keys.hpp"
#include "wincni/hns/schema/json_io.hpp"

namespace wincni::hns::emulator {

HostComputeNamespace& Host::namespace_(const Guid& id) {
  HostComputeNamespace* ns = state_.find_namespace(id);
  // hcsshim recognises a missing namespace by this code / "Element not found."
  if (!ns) throw HcnFailure(hr::kElementNotFound, "no namespace " + id.str());
  return *ns;
}

const HostComputeNamespace& Host::create_namespace(HostComputeNamespace request, Guid id) {
  id = new_object_id(id, request.id);
  if (state_.find_namespace(id)) {
    throw HcnFailure(rules_.duplicate_code.value_or(hr::kAlreadyExists), "namespace " + id.str() + " exists");
  }
  if (request.type.empty()) request.type = "Host";
  static constexpr std::string_view kTypes[] = {"Host", "HostDefault", "Guest", "GuestDefault"};
  auto known = std::find_if(std::begin(kTypes), std::end(kTypes),
                            [&](std::string_view type) { return cni::equals_ignore_case(type, request.type); });
  if (known == std::end(kTypes)) throw HcnFailure(hr::kInvalidJson, "unknown namespace type " + request.type);
  request.type = std::string(*known);
  // A host that lists its own default namespace still takes hcsshim's
  // HostDefault test namespaces, so the rule holds only without one.
  if (request.is_default() && !rules_.default_namespace) {
    for (const HostComputeNamespace* ns : state_.namespaces()) {
      if (cni::equals_ignore_case(ns->type, request.type)) {
        throw HcnFailure(hr::kDefaultNamespaceExists, "a " + request.type + " namespace exists");
      }
    }
  }
  std::vector<NamespaceResource> wanted = std::move(request.resources);
  HostComputeNamespace ns;
  ns.id = id;
  ns.type = request.type;
  ns.namespace_id = ns.is_default() ? 1 : state_.globals().next_compartment++;
  HostComputeNamespace& added = state_.add_namespace(std::move(ns));
  for (const auto& resource : wanted) {
    if (cni::equals_ignore_case(resource.type, "Endpoint")) {
      add_namespace_endpoint(id, resource.id);
    } else {
      added.resources.push_back(resource);
    }
  }
  return namespace_(id);
}

void Host::delete_namespace(const Guid& id) {
  for (const Guid& endpoint_id : namespace_(id).endpoint_ids()) {
    EndpointRecord* record = state_.find_endpoint(endpoint_id);
    if (record && !rules_.namespace_delete_leaves_reference) record->endpoint.host_compute_namespace = Guid{};
  }
  state_.erase_namespace(id);
}

void Host::modify_namespace(const Guid& id, const ModifyRequest& request) {
  HostComputeNamespace& ns = namespace_(id);
  bool add = request.request_type == RequestType::Add;
  if (!add && request.request_type != RequestType::Remove) {
    throw HcnFailure(hr::kRequestUnsupported, "namespaces take Add and Remove requests");
  }
  if (cni::equals_ignore_case(request.resource_type, "Endpoint")) {
    Guid endpoint_id = json_io::read_guid(request.settings, "EndpointId");
    if (endpoint_id.is_null()) throw HcnFailure(hr::kInvalidJson, "the request names no EndpointId");
    if (add) {
      add_namespace_endpoint(id, endpoint_id);
    } else {
      remove_namespace_endpoint(id, endpoint_id);
    }
    return;
  }
  if (cni::equals_ignore_case(request.resource_type, "Container")) {
    Guid container_id = json_io::read_guid(request.settings, "ContainerId");
    if (container_id.is_null()) throw HcnFailure(hr::kInvalidJson, "the request names no ContainerId");
    auto same = [&](const NamespaceResource& resource) {
      return resource.id == container_id && cni::equals_ignore_case(resource.type, "Container");
    };
    bool present = std::any_of(ns.resources.begin(), ns.resources.end(), same);
    if (add && present) throw HcnFailure(hr::kAlreadyExists, "container already in the namespace");
    if (!add && !present) throw HcnFailure(hr::kElementNotFound, "container not in the namespace");
    if (add) {
      ns.resources.push_back({"Container", container_id});
    } else {
      std::erase_if(ns.resources, same);
    }
    return;
  }
  throw HcnFailure(hr::kRequestUnsupported, "cannot modify a namespace's " + request.resource_type);
}

void Host::add_namespace_endpoint(const Guid& ns_id, const Guid& endpoint_id) {
  HostComputeNamespace& ns = namespace_(ns_id);
  EndpointRecord& record = endpoint(endpoint_id);
  if (!record.endpoint.host_compute_namespace.is_null()) {
    throw HcnFailure(hr::kEndpointAlreadyAttached,
                     "endpoint is attached to namespace " + record.endpoint.host_compute_namespace.str());
  }
  record.endpoint.host_compute_namespace = ns_id;
  ns.resources.push_back({"Endpoint", endpoint_id});
}

void Host::remove_namespace_endpoint(const Guid& ns_id, const Guid& endpoint_id) {
  HostComputeNamespace& ns = namespace_(ns_id);
  EndpointRecord& record = endpoint(endpoint_id);
  if (record.endpoint.host_compute_namespace != ns_id) {
    throw HcnFailure(hr::kElementNotFound, "endpoint is not in namespace " + ns_id.str());
  }
  record.endpoint.host_compute_namespace = Guid{};
  std::erase_if(ns.resources, [&](const NamespaceResource& resource) { return resource.id == endpoint_id; });
}

void add_host_default_namespace(EmulatorState& state) {
  if (state.find_namespace(kHostDefaultNamespaceId)) return;
  HostComputeNamespace ns;
  ns.id = kHostDefaultNamespaceId;
  ns.type = "HostDefault";
  ns.namespace_id = 1;
  state.add_namespace(std::move(ns), /*first=*/true);
}

}  // namespace wincni::hns::emulator
