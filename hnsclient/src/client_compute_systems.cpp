// HnsClient's HCS side: the compute systems (running containers) that HNS v1
// endpoints are hot-added to, through vmcompute.dll's Hcs* calls.

#include <fmt/format.h>

#include "hns_answer.hpp"
#include "wincni/hns/client.hpp"
#include "wincni/hns/schema/json_io.hpp"

namespace wincni::hns {
namespace {

// HCS's result document {"Error":<int>,"ErrorMessage":"..."}, or an error
// record of HNS's shape where our side of the boundary failed.
std::string result_text(const std::string& result) {
  Json parsed = Json::parse(result, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object()) return result;
  for (const char* key : {"ErrorMessage", "Error"}) {
    if (const Json* text = json_io::field(parsed, key); text && text->is_string()) return text->get<std::string>();
  }
  return {};
}

// A result document beside S_OK is a failure, as hcsshim reads it; HCS may
// have done the work then.
CallOutcome hcs_outcome_of(const HcnReply& reply, const std::string& operation) {
  if (succeeded(reply.hr) && reply.error_record.empty()) return CallOutcome{reply.hr, reply.output, {}, operation};
  if (failed(reply.hr)) return CallOutcome{reply.hr, {}, result_text(reply.error_record), operation};
  return CallOutcome{hr::kInvalidJson,
                     {},
                     unreadable_answer_text("not a result document {\"Error\":<code>}", reply.error_record),
                     operation,
                     /*work_done=*/true};
}

// Open `id`, run `use` on it, close: one unit, as with_handle is for HCN.
CallOutcome with_system(HcnApi& api, const std::string& id, const std::function<CallOutcome(HcsHandle)>& use) {
  HcsHandle system = nullptr;
  HcnReply opened = api.hcs_open(id, &system);
  if (!succeeded(opened.hr) || !opened.error_record.empty()) {
    if (system) api.hcs_close(system);
    return hcs_outcome_of(opened, "HcsOpenComputeSystem");
  }
  CallOutcome outcome = use(system);
  api.hcs_close(system);
  return outcome;
}

// The work of one hot add or remove: `request_type` "Add" or "Remove".
std::function<CallOutcome()> network_modification(std::shared_ptr<HcnApi> api, const std::string& container,
                                                  const char* request_type, const Guid& endpoint) {
  std::string text =
      Json{{"ResourceType", "Network"}, {"RequestType", request_type}, {"Settings", endpoint.str()}}.dump();
  return [api, container, text] {
    return with_system(*api, container, [&](HcsHandle system) {
      return hcs_outcome_of(api->hcs_modify(system, text), "HcsModifyComputeSystem");
    });
  };
}

std::string container_and_endpoint(const std::string& container, const Guid& endpoint) {
  return fmt::format("container {} and endpoint {}", container, endpoint.str());
}

}  // namespace

void HnsClient::hot_attach(const std::string& container_id, const Guid& endpoint) {
  CallOutcome outcome =
      call("HcsModifyComputeSystem", network_modification(api_, container_id, "Add", endpoint), false);
  // Already in the container: where the caller wants it (terway takes this
  // code from a hot add as success too).
  if (outcome.hr == hr::kEndpointAlreadyAttached) return;
  if (!outcome.ok()) raise(outcome, container_and_endpoint(container_id, endpoint));
}

bool HnsClient::hot_detach(const std::string& container_id, const Guid& endpoint) {
  // Repeated, a removal that was done finds the endpoint not in the container.
  CallOutcome outcome =
      call("HcsModifyComputeSystem", network_modification(api_, container_id, "Remove", endpoint), true);
  if (is_compute_system_missing(outcome.hr) || outcome.hr == hr::kEndpointNotAttached) return false;
  if (!outcome.ok()) raise(outcome, container_and_endpoint(container_id, endpoint));
  return true;
}

void HnsClient::create_compute_system(const std::string& id, const Json& configuration) {
  auto api = api_;
  std::string text = configuration.dump();
  CallOutcome outcome = call(
      "HcsCreateComputeSystem",
      [api, id, text] {
        HcsHandle system = nullptr;
        HcnReply reply = api->hcs_create(id, text, &system);
        if (system) api->hcs_close(system);
        return hcs_outcome_of(reply, "HcsCreateComputeSystem");
      },
      false);
  if (!outcome.ok()) raise(outcome, "compute system " + id);
}

bool HnsClient::terminate_compute_system(const std::string& id) {
  auto api = api_;
  CallOutcome outcome = call(
      "HcsTerminateComputeSystem",
      [api, id] {
        return with_system(*api, id, [&](HcsHandle system) {
          return hcs_outcome_of(api->hcs_terminate(system), "HcsTerminateComputeSystem");
        });
      },
      true);
  if (is_compute_system_missing(outcome.hr)) return false;
  if (!outcome.ok()) raise(outcome, "compute system " + id);
  return true;
}

std::optional<Json> HnsClient::compute_system_properties(const std::string& id) {
  auto api = api_;
  CallOutcome outcome = call(
      "HcsGetComputeSystemProperties",
      [api, id] {
        return with_system(*api, id, [&](HcsHandle system) {
          return hcs_outcome_of(api->hcs_properties(system, ""), "HcsGetComputeSystemProperties");
        });
      },
      true);
  if (is_compute_system_missing(outcome.hr)) return std::nullopt;
  if (!outcome.ok()) raise(outcome, "compute system " + id);
  Json properties = Json::parse(outcome.output, nullptr, /*allow_exceptions=*/false);
  if (!properties.is_object()) {
    throw HnsError::unreadable_answer("HcsGetComputeSystemProperties", "compute system " + id, outcome.output);
  }
  return properties;
}

}  // namespace wincni::hns
