#include <algorithm>

#include "failure.hpp"
#include "host.hpp"
#include "wincni/cni/json_keys.hpp"
#include "wincni/hns/schema/json_io.hpp"

namespace wincni::hns::emulator {
namespace {

bool lists(const std::vector<std::string>& containers, std::string_view container) {
  return std::any_of(containers.begin(), containers.end(),
                     [&](const std::string& item) { return cni::equals_ignore_case(item, container); });
}

void forget_container(std::vector<std::string>& containers, std::string_view container) {
  std::erase_if(containers, [&](const std::string& item) { return cni::equals_ignore_case(item, container); });
}

// The request's endpoint, its action, both checked as HCS reads the document.
struct NetworkModification {
  bool add = false;
  Guid endpoint;
};

NetworkModification network_modification(const Json& request) {
  if (!request.is_object()) throw HcnFailure(hr::kHcsInvalidJson, "the modify request is not a JSON object");
  const Json* resource = json_io::field(request, "ResourceType");
  if (!resource || !resource->is_string()) throw HcnFailure(hr::kHcsInvalidJson, "the request has no ResourceType");
  if (!cni::equals_ignore_case(resource->get<std::string>(), "Network")) {
    // hcsshim maps this answer to ErrPlatformNotSupported.
    throw HcnFailure(hr::kNotSupported, "cannot modify a container's " + resource->get<std::string>());
  }
  const Json* request_type = json_io::field(request, "RequestType");
  const std::string type = request_type && request_type->is_string() ? request_type->get<std::string>() : "";
  NetworkModification modification;
  if (cni::equals_ignore_case(type, "Add")) {
    modification.add = true;
  } else if (!cni::equals_ignore_case(type, "Remove")) {
    throw HcnFailure(hr::kHcsInvalidJson, "RequestType must be Add or Remove, not \"" + type + "\"");
  }
  const Json* settings = json_io::field(request, "Settings");
  auto endpoint = settings && settings->is_string() ? Guid::parse(settings->get<std::string>()) : std::nullopt;
  if (!endpoint) throw HcnFailure(hr::kHcsInvalidJson, "Settings must be the endpoint's ID");
  modification.endpoint = *endpoint;
  return modification;
}

}  // namespace

void Host::create_compute_system(const std::string& id, const Json& configuration) {
  if (id.empty()) throw HcnFailure(hr::kInvalidArg, "a compute system needs an ID");
  if (state_.find_compute_system(id)) throw HcnFailure(hr::kSystemAlreadyExists, "compute system " + id + " exists");
  if (!configuration.is_object()) throw HcnFailure(hr::kHcsInvalidJson, "the configuration is not a JSON object");
  ComputeSystemRecord system;
  system.id = id;
  if (const Json* owner = json_io::field(configuration, "Owner"); owner && owner->is_string()) {
    system.owner = owner->get<std::string>();
  }
  state_.compute_systems().push_back(std::move(system));
}

ComputeSystemRecord& Host::compute_system(std::string_view id) {
  ComputeSystemRecord* system = state_.find_compute_system(id);
  if (!system) throw HcnFailure(hr::kSystemNotFound, "no compute system " + std::string(id));
  return *system;
}

void Host::modify_compute_system(std::string_view id, const Json& request) {
  ComputeSystemRecord& system = compute_system(id);
  const NetworkModification modification = network_modification(request);
  EndpointRecord& record = endpoint(modification.endpoint);
  auto& adapters = system.network_adapters;
  const bool plugged = std::find(adapters.begin(), adapters.end(), modification.endpoint) != adapters.end();
  if (modification.add) {
    // terway tolerates this code from a hot attach that was already done.
    if (plugged) throw HcnFailure(hr::kEndpointAlreadyAttached, "already in compute system " + system.id);
    adapters.push_back(modification.endpoint);
    if (!lists(record.shared_containers, system.id)) record.shared_containers.push_back(system.id);
    return;
  }
  if (!plugged) throw HcnFailure(hr::kEndpointNotAttached, "not in compute system " + system.id);
  std::erase(adapters, modification.endpoint);
  forget_container(record.shared_containers, system.id);
}

void Host::terminate_compute_system(std::string_view id) {
  const ComputeSystemRecord system = compute_system(id);
  for (const Guid& endpoint : system.network_adapters) {
    if (EndpointRecord* record = state_.find_endpoint(endpoint)) forget_container(record->shared_containers, system.id);
  }
  std::erase_if(state_.compute_systems(),
                [&](const ComputeSystemRecord& item) { return cni::equals_ignore_case(item.id, system.id); });
}

Json Host::compute_system_properties(const ComputeSystemRecord& system) const {
  // hcsshim's schema1 ContainerProperties, the fields a plain query returns.
  return Json{{"Id", system.id},       {"Name", system.id},          {"SystemType", "Container"},
              {"Owner", system.owner}, {"RuntimeOsType", "Windows"}, {"State", "Running"},
              {"Stopped", false}};
}

}  // namespace wincni::hns::emulator
