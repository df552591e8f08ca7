#include "wincni/hns/client.hpp"

#include <fmt/format.h>

#include "hns_answer.hpp"
#include "wincni/hns/schema/json_io.hpp"

namespace wincni::hns {
namespace {

// HNS's own words from an error record; nullopt when it is no record.
std::optional<std::string> record_text(const std::string& record) {
  Json parsed = Json::parse(record, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_object()) {
    if (const Json* error = json_io::field(parsed, "Error"); error && error->is_string()) return error->get<std::string>();
  }
  return std::nullopt;
}

CallOutcome outcome_of(const HcnReply& reply, std::string operation) {
  if (reply.ok()) return CallOutcome{hr::kOk, reply.output, {}, std::move(operation)};
  if (reply.error_record.empty()) return CallOutcome{reply.hr, {}, {}, std::move(operation)};
  // A non-empty error record is a failure even with S_OK (hcsshim's rule).
  if (auto text = record_text(reply.error_record)) {
    return CallOutcome{failed(reply.hr) ? reply.hr : hr::kFail, {}, *text, std::move(operation)};
  }
  // No record at all: a failing HRESULT still says what happened; with S_OK
  // nothing readable is left, and HNS may have done the work.
  return CallOutcome{failed(reply.hr) ? reply.hr : hr::kInvalidJson, {},
                     unreadable_answer_text("not an error record {\"Error\":\"<text>\"}", reply.error_record),
                     std::move(operation), /*work_done=*/succeeded(reply.hr)};
}

std::string hcn_name(std::string_view verb, HcnObject kind) {
  std::string name = fmt::format("Hcn{}{}", verb, object_name(kind));
  if (verb == "Enumerate") name += 's';
  if (verb == "Query") name += "Properties";
  return name;
}

// Open, run `use` on the handle, close: one unit, so that a timeout never
// leaves an open handle behind in the caller.
CallOutcome with_handle(HcnApi& api, HcnObject kind, const Guid& id,
                        const std::function<CallOutcome(HcnHandle)>& use) {
  HcnHandle handle = nullptr;
  HcnReply opened = api.open(kind, id, &handle);
  if (!opened.ok()) {
    if (handle) api.close(kind, handle);
    return outcome_of(opened, hcn_name("Open", kind));
  }
  CallOutcome outcome = use(handle);
  api.close(kind, handle);
  return outcome;
}

std::string quoted(std::string_view kind, std::string_view name) { return fmt::format("{} \"{}\"", kind, name); }
std::string named(std::string_view kind, const Guid& id) { return fmt::format("{} {}", kind, id.str()); }

template <class T>
std::optional<T> read_if_there(const std::optional<HnsAnswer>& answer) {
  if (!answer) return std::nullopt;
  return answer->read<T>();
}

// An enumeration's answer: a list of GUID strings.
std::vector<Guid> ids_in(const Json& answer) {
  if (!answer.is_array()) throw SchemaError(SchemaError::Kind::Type, "answer", "expected a list of IDs");
  std::vector<Guid> ids;
  for (std::size_t i = 0; i < answer.size(); ++i) {
    const Json& item = answer[i];
    auto id = item.is_string() ? Guid::parse(item.get<std::string>()) : std::nullopt;
    if (!id) throw SchemaError(SchemaError::Kind::Value, fmt::format("[{}]", i), item.dump() + " is not an ID");
    ids.push_back(*id);
  }
  return ids;
}

HnsVersion version_in(const Json& answer) {
  json_io::require_object(answer, "version");
  return HnsVersion{json_io::read_uint<std::uint16_t>(answer, "Major"), json_io::read_uint<std::uint16_t>(answer, "Minor")};
}

}  // namespace

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
  CallOutcome outcome =
      call(operation, [api, kind, text, operation] { return outcome_of(api->enumerate(kind, text), operation); }, true);
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
  CallOutcome outcome =
      call(operation, [api, kind, id, operation] { return outcome_of(api->remove(kind, id), operation); }, true);
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
  std::vector<Guid> ids =
      enumerate(kind, Json{{"Name", std::string(name)}}, quoted(kind == HcnObject::Network ? "network" : "endpoint", name));
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

// --- v1 -------------------------------------------------------------------------------------

std::optional<HnsAnswer> HnsClient::hns_request(const std::string& method, const std::string& path,
                                                const std::string& body, const std::string& object, bool idempotent,
                                                const std::optional<V1Subject>& subject) {
  auto api = api_;
  std::string operation = fmt::format("HNSCall {} {}", method, path);
  // Only the HRESULT decides a retry, so the envelope is read here, where an
  // unreadable one can raise with the operation's name.
  CallOutcome outcome = call(
      operation,
      [api, method, path, body, operation] {
        HnsCallReply reply = api->hns_call(method, path, body);
        return CallOutcome{reply.hr, failed(reply.hr) ? std::string{} : std::move(reply.response), {}, operation};
      },
      idempotent);
  if (is_not_found(outcome.hr)) return std::nullopt;
  if (!outcome.ok()) raise(outcome, object);
  HnsAnswer response = HnsAnswer::parse(outcome.output, operation, object);
  HnsEnvelope envelope = response.read<HnsEnvelope>();
  if (!envelope.success) {
    if (subject && !is_listed(*subject)) return std::nullopt;
    throw HnsError::v1_refusal(operation, object, envelope.error.empty() ? "HNS reported a failure" : envelope.error);
  }
  return HnsAnswer(std::move(envelope.output), std::move(outcome.output), operation, object);
}

bool HnsClient::is_listed(const V1Subject& subject) {
  std::optional<HnsAnswer> listing;
  try {
    listing = hns_request("GET", subject.collection, "", subject.collection, true);
  } catch (const HnsError&) {
    return true;  // nothing says the object went: the answer stays a refusal
  }
  if (!listing) return false;
  return listing->read_with([&](const Json& items) {
    if (!items.is_array()) return false;
    for (const Json& item : items) {
      const Json* id = item.is_object() ? json_io::field(item, "ID") : nullptr;
      if (id && id->is_string() && Guid::parse(id->get<std::string>()) == subject.id) return true;
    }
    return false;
  });
}

std::optional<HnsNetwork> HnsClient::find_hns_network_by_name(std::string_view name) {
  if (supports(Feature::ApiV2)) {
    auto id = id_by_name(HcnObject::Network, name);
    return id ? get_hns_network(*id) : std::nullopt;
  }
  // Before HNS 9.2 there is no server-side filter at all.
  for (auto& network : list_hns_networks()) {
    if (network.name == name) return network;
  }
  return std::nullopt;
}

std::optional<HnsNetwork> HnsClient::get_hns_network(const Guid& id) {
  return read_if_there<HnsNetwork>(
      hns_request("GET", "/networks/" + id.str(), "", named("network", id), true, V1Subject{"/networks/", id}));
}

std::vector<HnsNetwork> HnsClient::list_hns_networks() {
  auto output = hns_request("GET", "/networks/", "", "networks", true);
  return output ? output->read_list<HnsNetwork>() : std::vector<HnsNetwork>{};
}

HnsNetwork HnsClient::create_hns_network(const HnsNetwork& settings) {
  std::string object = quoted("network", settings.name);
  auto output = hns_request("POST", "/networks/", settings.to_json().dump(), object, false);
  if (!output) raise(CallOutcome{hr::kNetworkNotFound, {}, {}, "HNSCall POST /networks/"}, object);
  return output->read<HnsNetwork>();
}

bool HnsClient::delete_hns_network(const Guid& id) {
  return hns_request("DELETE", "/networks/" + id.str(), "", named("network", id), true, V1Subject{"/networks/", id})
      .has_value();
}

std::optional<HnsEndpoint> HnsClient::find_hns_endpoint_by_name(std::string_view name) {
  if (supports(Feature::ApiV2)) {
    auto id = id_by_name(HcnObject::Endpoint, name);
    return id ? get_hns_endpoint(*id) : std::nullopt;
  }
  for (auto& endpoint : list_hns_endpoints()) {
    if (endpoint.name == name) return endpoint;
  }
  return std::nullopt;
}

std::optional<HnsEndpoint> HnsClient::get_hns_endpoint(const Guid& id) {
  return read_if_there<HnsEndpoint>(
      hns_request("GET", "/endpoints/" + id.str(), "", named("endpoint", id), true, V1Subject{"/endpoints/", id}));
}

std::vector<HnsEndpoint> HnsClient::list_hns_endpoints() {
  auto output = hns_request("GET", "/endpoints/", "", "endpoints", true);
  return output ? output->read_list<HnsEndpoint>() : std::vector<HnsEndpoint>{};
}

HnsEndpoint HnsClient::create_hns_endpoint(const HnsEndpoint& settings) {
  std::string object = fmt::format("endpoint \"{}\" on network {}", settings.name, settings.virtual_network.str());
  auto output = hns_request("POST", "/endpoints/", settings.to_json().dump(), object, false,
                            V1Subject{"/networks/", settings.virtual_network});
  if (!output) raise(CallOutcome{hr::kNetworkNotFound, {}, {}, "HNSCall POST /endpoints/"}, object);
  return output->read<HnsEndpoint>();
}

HnsEndpoint HnsClient::update_hns_endpoint(const HnsEndpoint& endpoint) {
  std::string path = "/endpoints/" + endpoint.id.str();
  std::string object = named("endpoint", endpoint.id);
  auto output =
      hns_request("POST", path, endpoint.to_json().dump(), object, true, V1Subject{"/endpoints/", endpoint.id});
  if (!output) raise(CallOutcome{hr::kEndpointNotFound, {}, {}, "HNSCall POST " + path}, object);
  return output->read<HnsEndpoint>();
}

bool HnsClient::delete_hns_endpoint(const Guid& id) {
  return hns_request("DELETE", "/endpoints/" + id.str(), "", named("endpoint", id), true,
                     V1Subject{"/endpoints/", id})
      .has_value();
}

bool HnsClient::post_attachment(const Guid& endpoint, const EndpointAttachRequest& request, bool attach,
                                const std::string& object) {
  std::string path = "/endpoints/" + endpoint.str() + (attach ? "/attach" : "/detach");
  // A detach can be repeated harmlessly; an attach cannot.
  bool done =
      hns_request("POST", path, request.to_json().dump(), object, !attach, V1Subject{"/endpoints/", endpoint})
          .has_value();
  if (!done && attach) raise(CallOutcome{hr::kEndpointNotFound, {}, {}, "HNSCall POST " + path}, object);
  return done;
}

void HnsClient::attach_container(const Guid& endpoint, const std::string& container_id) {
  EndpointAttachRequest request;
  request.container_id = container_id;
  post_attachment(endpoint, request, true, fmt::format("endpoint {} and container {}", endpoint.str(), container_id));
}

bool HnsClient::detach_container(const Guid& endpoint, const std::string& container_id) {
  EndpointAttachRequest request;
  request.container_id = container_id;
  return post_attachment(endpoint, request, false,
                         fmt::format("endpoint {} and container {}", endpoint.str(), container_id));
}

void HnsClient::attach_host(const Guid& endpoint, std::uint16_t compartment) {
  EndpointAttachRequest request;
  request.system_type = "Host";
  request.compartment_id = compartment;
  post_attachment(endpoint, request, true, fmt::format("endpoint {} and the host", endpoint.str()));
}

bool HnsClient::detach_host(const Guid& endpoint) {
  EndpointAttachRequest request;
  request.system_type = "Host";
  return post_attachment(endpoint, request, false, fmt::format("endpoint {} and the host", endpoint.str()));
}

// The emulator lists namespaces at GET /namespaces/; that HNS v1 does is not
// established (nothing of ours calls this on a node).
std::optional<HnsNamespace> HnsClient::get_hns_namespace(const Guid& id) {
  return read_if_there<HnsNamespace>(hns_request("GET", "/namespaces/" + id.str(), "", named("namespace", id), true,
                                                V1Subject{"/namespaces/", id}));
}

}  // namespace wincni::hns
