// HnsClient: the calls every part of it makes through the seam (timeouts,
// retries, errors), the generic HCN operations and the version.

#include "wincni/hns/client.hpp"

#include <fmt/format.h>

#include "client_calls.hpp"
#include "wincni/hns/schema/json_io.hpp"

namespace wincni::hns {

using namespace client_calls;

HnsClient::HnsClient(std::shared_ptr<HcnApi> api, CallPolicy policy) : api_(std::move(api)), policy_(policy) {}

CallOutcome HnsClient::call(const std::string& operation, const std::function<CallOutcome()>& work, bool idempotent) {
  CallOutcome outcome = run_call(policy_, work, idempotent);
  if (outcome.operation.empty()) outcome.operation = operation;
  return outcome;
}

void HnsClient::raise(const CallOutcome& outcome, const std::string& object) {
  const std::string operation = outcome.operation.empty() ? "HNS call" : outcome.operation;
  if (outcome.work_done) throw HnsError::after_work(outcome.hr, operation, object, outcome.hns_text);
  throw HnsError(outcome.hr, operation, object, outcome.hns_text);
}

// --- generic HCN operations ------------------------------------------------------

std::vector<Guid> HnsClient::enumerate(HcnObject kind, const Json& filter, const std::string& object) {
  HostComputeQuery query;
  query.filter = filter;
  std::string text = query.str();
  auto api = api_;
  std::string operation = hcn_name("Enumerate", kind);
  CallOutcome outcome = call(
      operation, [api, kind, text, operation] { return outcome_of(api->enumerate(kind, text), operation); }, true);
  if (!outcome.ok()) raise(outcome, object);
  return HnsAnswer::parse(outcome.output, outcome.operation, object).read_with(ids_in);
}

std::optional<HnsAnswer> HnsClient::query(HcnObject kind, const Guid& id, const std::string& object) {
  auto api = api_;
  std::string operation = hcn_name("Query", kind);
  CallOutcome outcome = call(
      operation,
      [api, kind, id, operation] {
        return with_handle(*api, kind, id, [&](HcnHandle handle) {
          return outcome_of(api->query_properties(kind, handle, HostComputeQuery{}.str()), operation);
        });
      },
      true);
  if (is_not_found(outcome.hr)) return std::nullopt;
  if (!outcome.ok()) raise(outcome, object);
  return HnsAnswer::parse(outcome.output, outcome.operation, object);
}

HnsAnswer HnsClient::create(HcnObject kind, const Guid& network, const Guid& id, const Json& settings,
                            const std::string& object) {
  auto api = api_;
  std::string text = settings.dump();
  CallOutcome outcome = call(
      hcn_name("Create", kind),
      [api, kind, network, id, text] {
        auto create_in = [&](HcnHandle parent) {
          HcnHandle handle = nullptr;
          HcnReply created = api->create(kind, parent, id, text, &handle);
          if (!created.ok()) {
            if (handle) api->close(kind, handle);
            return outcome_of(created, hcn_name("Create", kind));
          }
          CallOutcome properties =
              outcome_of(api->query_properties(kind, handle, HostComputeQuery{}.str()), hcn_name("Query", kind));
          api->close(kind, handle);
          // The object exists whatever its read-back says: the create is
          // never repeated, the read-back is (below).
          properties.work_done = !properties.ok();
          return properties;
        };
        if (kind == HcnObject::Endpoint) return with_handle(*api, HcnObject::Network, network, create_in);
        return create_in(nullptr);
      },
      false);
  if (!outcome.ok() && outcome.work_done && !id.is_null() &&
      (is_transient(outcome.hr) || is_maybe_executed(outcome.hr))) {
    // Created, and the read-back through the new handle could not be had:
    // read it again as a call of its own (open, query, close), with its own
    // time limit and the retries of any idempotent call. A refusal stays a
    // refusal; an object whose ID HNS picked cannot be opened again.
    if (auto answer = query(kind, id, object)) return std::move(*answer);
  }
  if (!outcome.ok()) raise(outcome, object);
  return HnsAnswer::parse(outcome.output, outcome.operation, object);
}

bool HnsClient::remove(HcnObject kind, const Guid& id, const std::string& object) {
  auto api = api_;
  std::string operation = hcn_name("Delete", kind);
  CallOutcome outcome = call(
      operation, [api, kind, id, operation] { return outcome_of(api->remove(kind, id), operation); }, true);
  if (is_not_found(outcome.hr)) return false;
  if (!outcome.ok()) raise(outcome, object);
  return true;
}

bool HnsClient::modify(HcnObject kind, const Guid& id, const Json& settings, const std::string& object) {
  auto api = api_;
  std::string text = settings.dump();
  std::string operation = hcn_name("Modify", kind);
  CallOutcome outcome = call(
      operation,
      [api, kind, id, text, operation] {
        return with_handle(*api, kind, id,
                           [&](HcnHandle handle) { return outcome_of(api->modify(kind, handle, text), operation); });
      },
      false);
  // Only the object itself being gone means "not there"; a not-found from
  // the modification (an endpoint it names) is a real failure.
  if (is_not_found(outcome.hr) && outcome.operation == hcn_name("Open", kind)) return false;
  if (!outcome.ok()) raise(outcome, object);
  return true;
}

std::optional<Guid> HnsClient::id_by_name(HcnObject kind, std::string_view name) {
  std::vector<Guid> ids = enumerate(kind, Json{{"Name", std::string(name)}},
                                    quoted(kind == HcnObject::Network ? "network" : "endpoint", name));
  if (ids.empty()) return std::nullopt;
  return ids.front();
}

// --- version ------------------------------------------------------------------------

HnsVersion HnsClient::version() {
  if (version_) return *version_;
  auto output = hns_request("GET", "/globals/version", "", "the HNS version", true);
  if (!output) raise(CallOutcome{hr::kElementNotFound, {}, "HNS has no version", "HNSCall GET /globals/version"}, {});
  version_ = output->read_with(version_in);
  return *version_;
}

bool HnsClient::supports(Feature feature) { return hns::supports(version(), feature); }

}  // namespace wincni::hns
