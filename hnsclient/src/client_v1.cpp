// HnsClient's HNS v1 calls, through vmcompute.dll's HNSCall: what
// dockershim-era nodes and HNS before 9.2 (no computenetwork.dll) need.

#include "wincni/hns/client.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>

#include <fmt/format.h>

#include "client_calls.hpp"
#include "wincni/hns/schema/json_io.hpp"

namespace wincni::hns {

using namespace client_calls;

namespace {

// HNS v1 answers some failures in the envelope rather than in HNSCall's
// HRESULT, and may put the HRESULT there too ("ErrorCode", microsoft/hcsshim
// pull request 2800). Such a code decides as the call's own would: retried
// when transient, a miss when not found, a refusal with its code otherwise,
// whatever the language of the text beside it. An envelope without a code
// (or one that cannot be read) is left to hns_request.
std::optional<HnsEnvelope> coded_refusal(const std::string& response) {
  // hns_request parses every answer anyway: only one that may carry a code
  // (the key in any case, as the reader matches it) is parsed here too, so a
  // successful call is parsed once.
  constexpr std::string_view kKey = "\"errorcode\"";
  const auto same = [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == static_cast<unsigned char>(b);
  };
  if (std::search(response.begin(), response.end(), kKey.begin(), kKey.end(), same) == response.end()) {
    return std::nullopt;
  }
  const Json parsed = Json::parse(response, nullptr, false);
  if (!parsed.is_object()) return std::nullopt;
  try {
    HnsEnvelope envelope = HnsEnvelope::from_json(parsed);
    if (envelope.success || !failed(envelope.error_code)) return std::nullopt;
    return envelope;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

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
        if (failed(reply.hr)) return CallOutcome{reply.hr, {}, {}, operation};
        if (auto refusal = coded_refusal(reply.response))
          return CallOutcome{refusal->error_code, {}, refusal->error, operation};
        return CallOutcome{reply.hr, std::move(reply.response), {}, operation};
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
  return hns_request("DELETE", "/endpoints/" + id.str(), "", named("endpoint", id), true, V1Subject{"/endpoints/", id})
      .has_value();
}

bool HnsClient::post_attachment(const Guid& endpoint, const EndpointAttachRequest& request, bool attach,
                                const std::string& object) {
  std::string path = "/endpoints/" + endpoint.str() + (attach ? "/attach" : "/detach");
  // A detach can be repeated harmlessly; an attach cannot.
  bool done = hns_request("POST", path, request.to_json().dump(), object, !attach, V1Subject{"/endpoints/", endpoint})
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
  return read_if_there<HnsNamespace>(
      hns_request("GET", "/namespaces/" + id.str(), "", named("namespace", id), true, V1Subject{"/namespaces/", id}));
}

}  // namespace wincni::hns
