// vmcompute.dll's HNSCall: the HNS v1 REST-like paths, served from the same
// store as HCN.
//
// Errors: a missing object is answered like HNS does, with S_OK and
// {"Success":false,"Error":"<text> "}; any other refusal fails the call
// itself with its HRESULT (a duplicate network name did so on real hosts).

#include <algorithm>
#include <vector>

#include "emulator_impl.hpp"
#include "error_texts.hpp"
#include "failure.hpp"
#include "garbling.hpp"
#include "v1_views.hpp"
#include "wincni/cni/json_keys.hpp"
#include "wincni/hns/schema/hns_v1.hpp"
#include "wincni/hns/schema/json_io.hpp"

namespace wincni::hns::emulator {
namespace {

using json_io::Json;

// "/endpoints/<id>/attach" -> {"endpoints", "<id>", "attach"}.
struct Request {
  std::string method;
  std::string collection;
  std::string id;
  std::string action;
  std::string_view body;
};

Request parse_request(std::string_view method, std::string_view path, std::string_view body) {
  Request request;
  for (char c : method) request.method += static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  std::vector<std::string> segments;
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    std::string_view segment =
        path.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (!segment.empty()) segments.emplace_back(segment);
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  if (segments.size() > 0) request.collection = segments[0];
  if (segments.size() > 1) request.id = segments[1];
  if (segments.size() > 2) request.action = segments[2];
  if (segments.size() > 3) request.action = "/";  // matches no route
  request.body = body;
  return request;
}

Guid path_guid(const std::string& text) {
  auto id = Guid::parse(text);
  if (!id) throw HcnFailure(hr::kGuidConversionFailure, "\"" + text + "\" is not a GUID");
  return *id;
}

Json body_object(std::string_view body) { return json_io::parse_object(body, "request"); }

bool is_not_found(HResult code) {
  return code == hr::kNetworkNotFound || code == hr::kEndpointNotFound || code == hr::kElementNotFound;
}

// Which logical operation a request is, for fault injection, and the object
// kind its errors are about.
struct Operation {
  std::string name;
  HcnObject kind = HcnObject::Network;
  Access access = Access::Read;
};

Operation classify(const Request& request) {
  HcnObject kind = HcnObject::Network;
  if (request.collection == "endpoints" || request.collection == "endpointstats") kind = HcnObject::Endpoint;
  if (request.collection == "namespaces") kind = HcnObject::Namespace;
  if (request.collection == "globals") return {"GetVersion", kind, Access::Read};
  if (request.collection == "endpointstats") return {"QueryEndpointStats", kind, Access::Read};
  if (request.method == "GET") {
    return {operation_name(request.id.empty() ? "Enumerate" : "Query", kind), kind, Access::Read};
  }
  if (request.method == "DELETE") return {operation_name("Delete", kind), kind, Access::Write};
  return {operation_name(request.id.empty() ? "Create" : "Modify", kind), kind, Access::Write};
}

[[noreturn]] void unsupported(const Request& request) {
  throw HcnFailure(hr::kRequestUnsupported, request.method + " /" + request.collection + "/" + request.id +
                                                " is not an HNS request the emulator serves");
}

Json networks(Host& host, const Request& request) {
  EmulatorState& state = host.state();
  if (request.method == "GET" && request.id.empty()) {
    Json all = Json::array();
    for (const NetworkRecord* record : state.networks()) all.push_back(host.network_v1(*record).to_json());
    return all;
  }
  if (request.method == "GET" && request.action.empty()) {
    return host.network_v1(host.network(path_guid(request.id))).to_json();
  }
  if (request.method == "POST" && request.id.empty()) {
    HostComputeNetwork wanted = to_v2(HnsNetwork::from_json(body_object(request.body)));
    if (host.rules().v1_posted_id_ignored) wanted.id = Guid{};
    return host.network_v1(host.create_network(std::move(wanted), Guid{})).to_json();
  }
  if (request.method == "DELETE" && request.action.empty() && !request.id.empty()) {
    host.delete_network(path_guid(request.id));
    return nullptr;
  }
  unsupported(request);
}

Json endpoints(Host& host, const Request& request) {
  EmulatorState& state = host.state();
  if (request.method == "GET" && request.id.empty()) {
    Json all = Json::array();
    for (const EndpointRecord* record : state.endpoints()) all.push_back(host.endpoint_v1(*record).to_json());
    return all;
  }
  if (request.method == "GET" && request.action.empty()) {
    return host.endpoint_v1(host.endpoint(path_guid(request.id))).to_json();
  }
  if (request.method == "DELETE" && request.action.empty() && !request.id.empty()) {
    host.delete_endpoint(path_guid(request.id));
    return nullptr;
  }
  if (request.method != "POST") unsupported(request);
  if (request.id.empty()) {
    HnsEndpoint wanted = HnsEndpoint::from_json(body_object(request.body));
    Guid network_id = wanted.virtual_network;
    if (network_id.is_null() && !wanted.virtual_network_name.empty()) {
      for (const NetworkRecord* record : state.networks()) {
        if (record->network.name == wanted.virtual_network_name) network_id = record->network.id;
      }
    }
    if (network_id.is_null()) throw HcnFailure(hr::kNetworkNotFound, "the endpoint names no VirtualNetwork");
    const Guid id = host.rules().v1_posted_id_ignored ? Guid{} : wanted.id;
    wanted.id = id;
    return host.endpoint_v1(host.create_endpoint(network_id, to_v2(wanted), id)).to_json();
  }
  Guid id = path_guid(request.id);
  if (request.action.empty()) {
    host.update_endpoint_policies(id, HnsEndpoint::from_json(body_object(request.body)).policies);
  } else if (request.action == "attach") {
    host.attach_endpoint(id, EndpointAttachRequest::from_json(body_object(request.body)));
  } else if (request.action == "detach") {
    host.detach_endpoint(id, EndpointAttachRequest::from_json(body_object(request.body)));
  } else {
    unsupported(request);
  }
  return host.endpoint_v1(host.endpoint(id)).to_json();
}

Json endpoint_stats(Host& host, const Request& request) {
  if (request.method != "GET" || request.id.empty()) unsupported(request);
  const EndpointRecord& record = host.endpoint(path_guid(request.id));
  // No traffic flows through an emulated switch.
  return Json{{"BytesReceived", 0},
              {"BytesSent", 0},
              {"DroppedPacketsIncoming", 0},
              {"DroppedPacketsOutgoing", 0},
              {"EndpointId", record.endpoint.id.str()},
              {"InstanceId", record.endpoint.id.str()},
              {"PacketsReceived", 0},
              {"PacketsSent", 0}};
}

Json namespaces(Host& host, const Request& request) {
  EmulatorState& state = host.state();
  if (request.method == "GET" && request.id.empty()) {
    Json all = Json::array();
    for (const HostComputeNamespace* ns : state.namespaces()) all.push_back(host.namespace_v1(*ns).to_json());
    return all;
  }
  if (request.method == "GET" && request.action.empty()) {
    return host.namespace_v1(host.namespace_(path_guid(request.id))).to_json();
  }
  if (request.method == "DELETE" && request.action.empty() && !request.id.empty()) {
    host.delete_namespace(path_guid(request.id));
    return nullptr;
  }
  if (request.method != "POST") unsupported(request);
  if (request.id.empty()) {
    Json body = request.body.empty() ? Json::object() : body_object(request.body);
    HostComputeNamespace wanted;
    wanted.type = json_io::read_bool(body, "IsDefault") ? "HostDefault" : "Host";
    return host.namespace_v1(host.create_namespace(std::move(wanted), Guid{})).to_json();
  }
  Guid id = path_guid(request.id);
  if (request.action != "addresource" && request.action != "removeresource") unsupported(request);
  Json body = body_object(request.body);
  std::string type = json_io::read_string(body, "Type");
  if (!cni::equals_ignore_case(type, "Endpoint")) {
    throw HcnFailure(hr::kRequestUnsupported, "namespace resources of type \"" + type + "\"");
  }
  Guid endpoint_id = json_io::read_guid(json_io::read_object(body, "Data"), "Id");
  if (request.action == "addresource") {
    host.add_namespace_endpoint(id, endpoint_id);
  } else {
    host.remove_namespace_endpoint(id, endpoint_id);
  }
  return host.namespace_v1(host.namespace_(id)).to_json();
}

Json globals(Host& host, const Request& request) {
  if (request.method != "GET" || request.id != "version" || !request.action.empty()) unsupported(request);
  return Json{{"Major", host.version().major}, {"Minor", host.version().minor}};
}

Json serve(Host& host, const Request& request) {
  if (request.collection == "networks") return networks(host, request);
  if (request.collection == "endpoints") return endpoints(host, request);
  if (request.collection == "endpointstats") return endpoint_stats(host, request);
  if (request.collection == "namespaces") return namespaces(host, request);
  if (request.collection == "globals") return globals(host, request);
  unsupported(request);
}

// What fails between the client and HNS, so that HNS cannot answer it in its
// envelope: RPC's errors (Win32 1700 to 1999) and a call timing out.
bool is_transport_failure(HResult code) {
  const HResult win32 = code & 0xFFFFu;
  return code == hr::kTimeout || ((code & 0xFFFF0000u) == 0x80070000u && win32 >= 1700 && win32 < 2000);
}

// The envelope of a call that succeeded, garbled when a fault says so.
std::string success_response(const Outcome& outcome) {
  HnsEnvelope envelope = HnsEnvelope::ok(Json::parse(outcome.output));
  if (outcome.garbled == Garbling::Shape && !envelope.output.is_null()) {
    envelope.output = garbled_shape(envelope.output);
    return envelope.to_json().dump();
  }
  std::string response = envelope.to_json().dump();
  return outcome.garbled ? garbled(response, *outcome.garbled) : response;
}

}  // namespace

HnsCallReply Emulator::hns_call(std::string_view method, std::string_view path, std::string_view body) {
  Request request = parse_request(method, path, body);
  Operation operation = classify(request);
  Outcome outcome = impl_->run(operation.name, operation.kind, operation.access,
                               [&](Host& host) { return serve(host, request).dump(); });
  HnsCallReply reply;
  if (succeeded(outcome.hr)) {
    reply.response = success_response(outcome);
  } else if (operation.name == "CreateEndpoint" && is_not_found(outcome.hr)) {
    // An endpoint posted onto a network that is not there fails the call
    // itself: "hnsCall failed in Win32: Element not found. (0x490)"
    // (Azure/acs-engine issue 4352).
    reply.hr = hr::kElementNotFound;
  } else if (is_not_found(outcome.hr) || (impl_->config.v1_failures_in_envelope && !is_transport_failure(outcome.hr))) {
    const HResult code = impl_->config.v1_failures_in_envelope ? outcome.hr : 0;
    reply.response = HnsEnvelope::failure(hns_error_text(outcome.hr, impl_->config.error_texts), code).to_json().dump();
  } else {
    reply.hr = outcome.hr;
  }
  const auto input = [&] { return Json{{"Method", method}, {"Path", path}, {"Request", Journal::embed(body)}}; };
  impl_->finish("HNSCall", input, reply.hr, failed(reply.hr) ? impl_->error_record(reply.hr) : reply.response, outcome);
  return reply;
}

}  // namespace wincni::hns::emulator
