// The HCN (computenetwork.dll) entry points of the emulator.

#include "emulator_impl.hpp"
#include "failure.hpp"
#include "filter.hpp"
#include "garbling.hpp"
#include "v1_views.hpp"
#include "wincni/cni/json_keys.hpp"
#include "wincni/hns/schema/hns_v1.hpp"
#include "wincni/hns/schema/json_io.hpp"

namespace wincni::hns::emulator {
namespace {

using json_io::Json;

// HCN is only there from HNS 9.2 (Windows 1809) on; before that
// computenetwork.dll had no such export.
void require_api_v2(const Host& host) {
  if (!supports(host.version(), Feature::ApiV2)) {
    throw HcnFailure(hr::kProcNotFound, "HNS " + host.version().str() + " has no HCN (v2) API");
  }
}

// "" is the default query; anything else must be a HostComputeQuery.
HostComputeQuery parse_query(std::string_view text) {
  if (text.empty()) return HostComputeQuery{};
  return HostComputeQuery::from_json(json_io::parse_object(text, "query"));
}

bool has_schema_version(const Json& settings) { return json_io::field(settings, "SchemaVersion") != nullptr; }

// Settings without a SchemaVersion are the v1 schema (hcsshim relies on it).
HostComputeNetwork network_settings(std::string_view text) {
  Json settings = json_io::parse_object(text, "settings");
  return has_schema_version(settings) ? HostComputeNetwork::from_json(settings)
                                      : to_v2(HnsNetwork::from_json(settings));
}

HostComputeEndpoint endpoint_settings(std::string_view text) {
  Json settings = json_io::parse_object(text, "settings");
  return has_schema_version(settings) ? HostComputeEndpoint::from_json(settings)
                                      : to_v2(HnsEndpoint::from_json(settings));
}

// The endpoints a filter can match, from the index when it names the ID, the
// name or the network (v1 keys whose values both views share): a superset
// that matches_filter then sorts out. Other filters read every endpoint.
std::vector<EndpointRecord*> endpoints_to_consider(EmulatorState& state, const Json& filter) {
  if (filter.is_object()) {
    for (const auto& [key, wanted] : filter.items()) {
      if (!wanted.is_string()) continue;
      const auto& text = wanted.get_ref<const std::string&>();
      if (cni::equals_ignore_case(key, "Name")) return state.endpoints_maybe_named(text);
      auto id = Guid::parse(text);
      if (!id) continue;
      if (cni::equals_ignore_case(key, "ID")) {
        EndpointRecord* record = state.find_endpoint(*id);
        return record ? std::vector<EndpointRecord*>{record} : std::vector<EndpointRecord*>{};
      }
      if (cni::equals_ignore_case(key, "VirtualNetwork")) return state.endpoints_on_network(*id);
    }
  }
  return state.endpoints();
}

std::string enumerate_ids(Host& host, HcnObject kind, const Json& filter) {
  const bool either_schema = host.rules().filter_either_schema;
  if (!either_schema) require_v1_filter_keys(filter);
  Json ids = Json::array();
  // The views are made only when matched against: HNS filters on v1 alone,
  // and an enumeration's cost was mostly views made for nothing.
  auto consider = [&](const Guid& id, const auto& v2, const auto& v1) {
    if (matches_filter(filter, either_schema ? v2() : Json(), v1().to_json())) ids.push_back(id.str());
  };
  auto consider_v2_only = [&](const auto& object) {
    const Json view = object.to_json();
    if (matches_filter(filter, view, view)) ids.push_back(object.id.str());
  };
  EmulatorState& state = host.state();
  switch (kind) {
    case HcnObject::Network:
      for (const NetworkRecord* record : state.networks()) {
        consider(
            record->network.id, [&] { return host.network_v2(*record); }, [&] { return host.network_v1(*record); });
      }
      break;
    case HcnObject::Endpoint:
      for (const EndpointRecord* record : endpoints_to_consider(state, filter)) {
        consider(
            record->endpoint.id, [&] { return host.endpoint_v2(*record); }, [&] { return host.endpoint_v1(*record); });
      }
      break;
    case HcnObject::Namespace:
      for (const HostComputeNamespace* ns : state.namespaces()) {
        consider(
            ns->id, [&] { return host.namespace_v2(*ns); }, [&] { return host.namespace_v1(*ns); });
      }
      break;
    // v1 has no objects of these shapes (its "policy lists" differ): the
    // filter reads the v2 object's keys (ID) either way.
    case HcnObject::LoadBalancer:
      for (const HostComputeLoadBalancer* lb : state.load_balancers()) consider_v2_only(*lb);
      break;
    case HcnObject::SdnRoute:
      for (const HostComputeRoute* route : state.sdn_routes()) consider_v2_only(*route);
      break;
  }
  return ids.dump();
}

HcnReply reply_of(const Outcome& outcome, const Emulator::Impl& impl) {
  if (failed(outcome.hr)) {
    return HcnReply{
        outcome.hr, {}, outcome.explain ? error_record(outcome.hr, outcome.detail) : impl.error_record(outcome.hr)};
  }
  if (outcome.garbled) {
    // A call without output garbles the only other thing it answers.
    if (outcome.output.empty())
      return HcnReply{outcome.hr, {}, garbled(impl.error_record(outcome.hr), *outcome.garbled)};
    return HcnReply{outcome.hr, garbled(outcome.output, *outcome.garbled), {}};
  }
  return HcnReply{outcome.hr, outcome.output, {}};
}

}  // namespace

HcnReply Emulator::enumerate(HcnObject kind, std::string_view query) {
  std::string op = operation_name("Enumerate", kind);
  Outcome outcome = impl_->run(op, kind, Access::Read, [&](Host& host) {
    require_api_v2(host);
    return enumerate_ids(host, kind, parse_query(query).filter);
  });
  HcnReply reply = reply_of(outcome, *impl_);
  impl_->finish(
      "Hcn" + op,
      [&] {
        return Json{{"Query", Journal::embed(query)}};
      },
      reply.hr, reply.ok() ? reply.output : reply.error_record, outcome);
  return reply;
}

HcnReply Emulator::create(HcnObject kind, HcnHandle network, const Guid& id, std::string_view settings,
                          HcnHandle* handle) {
  std::string op = operation_name("Create", kind);
  Guid created;
  Outcome outcome = impl_->run(op, kind, Access::Write, [&](Host& host) -> std::string {
    require_api_v2(host);
    switch (kind) {
      case HcnObject::Network:
        created = host.create_network(network_settings(settings), id).network.id;
        break;
      case HcnObject::Endpoint: {
        Guid network_id = impl_->resolve(HcnObject::Network, network);
        created = host.create_endpoint(network_id, endpoint_settings(settings), id).endpoint.id;
        break;
      }
      case HcnObject::Namespace:
        created =
            host.create_namespace(HostComputeNamespace::from_json(json_io::parse_object(settings, "settings")), id).id;
        break;
      case HcnObject::LoadBalancer:
        created = host.create_load_balancer(
                          HostComputeLoadBalancer::from_json(json_io::parse_object(settings, "settings")), id)
                      .id;
        break;
      case HcnObject::SdnRoute:
        created =
            host.create_sdn_route(HostComputeRoute::from_json(json_io::parse_object(settings, "settings")), id).id;
        break;
    }
    return {};
  });
  HcnReply reply = reply_of(outcome, *impl_);
  if (handle) *handle = reply.ok() ? impl_->open_handle(kind, created) : nullptr;
  const auto input = [&] {
    Json described = {{"Id", id.str()}, {"Settings", Journal::embed(settings)}};
    if (kind == HcnObject::Endpoint) described["Network"] = impl_->describe_handle(network);
    return described;
  };
  std::string output = impl_->journal.enabled()
                           ? (reply.ok() ? Json{{"ID", created.str()}} : Journal::embed(reply.error_record)).dump()
                           : std::string();
  impl_->finish("Hcn" + op, input, reply.hr, output, outcome);
  return reply;
}

HcnReply Emulator::open(HcnObject kind, const Guid& id, HcnHandle* handle) {
  std::string op = operation_name("Open", kind);
  Outcome outcome = impl_->run(op, kind, Access::Read, [&](Host& host) -> std::string {
    require_api_v2(host);
    switch (kind) {
      case HcnObject::Network:
        host.network(id);
        break;
      case HcnObject::Endpoint:
        host.endpoint(id);
        break;
      case HcnObject::Namespace:
        host.namespace_(id);
        break;
      case HcnObject::LoadBalancer:
        host.load_balancer(id);
        break;
      case HcnObject::SdnRoute:
        host.sdn_route(id);
        break;
    }
    return {};
  });
  HcnReply reply = reply_of(outcome, *impl_);
  if (handle) *handle = reply.ok() ? impl_->open_handle(kind, id) : nullptr;
  impl_->finish(
      "Hcn" + op,
      [&] {
        return Json{{"Id", id.str()}};
      },
      reply.hr, reply.error_record, outcome);
  return reply;
}

HcnReply Emulator::modify(HcnObject kind, HcnHandle handle, std::string_view settings) {
  std::string op = operation_name("Modify", kind);
  Outcome outcome = impl_->run(op, kind, Access::Write, [&](Host& host) -> std::string {
    require_api_v2(host);
    Guid id = impl_->resolve(kind, handle);
    if (kind == HcnObject::LoadBalancer) {
      // Not a {ResourceType, RequestType, Settings} request: the whole object.
      host.modify_load_balancer(id, json_io::parse_object(settings, "settings"));
      return {};
    }
    if (kind == HcnObject::SdnRoute) {
      host.sdn_route(id);
      // hcsshim's own comment: "HCNRoute doesn't implement modify functionality".
      throw HcnFailure(hr::kNotImpl, "SDN routes cannot be modified");
    }
    ModifyRequest request = ModifyRequest::from_json(json_io::parse_object(settings, "settings"));
    switch (kind) {
      case HcnObject::Network:
        host.modify_network(id, request);
        break;
      case HcnObject::Endpoint:
        host.modify_endpoint(id, request);
        break;
      case HcnObject::Namespace:
        host.modify_namespace(id, request);
        break;
      case HcnObject::LoadBalancer:
      case HcnObject::SdnRoute:
        break;
    }
    return {};
  });
  HcnReply reply = reply_of(outcome, *impl_);
  impl_->finish(
      "Hcn" + op,
      [&] {
        return Json{{"Handle", impl_->describe_handle(handle)}, {"Settings", Journal::embed(settings)}};
      },
      reply.hr, reply.error_record, outcome);
  return reply;
}

HcnReply Emulator::query_properties(HcnObject kind, HcnHandle handle, std::string_view query) {
  std::string op = operation_name("Query", kind);
  Outcome outcome = impl_->run(op, kind, Access::Read, [&](Host& host) -> std::string {
    require_api_v2(host);
    Guid id = impl_->resolve(kind, handle);
    parse_query(query);  // validated, then ignored, as HNS does with its Filter
    switch (kind) {
      case HcnObject::Network:
        return host.network_v2(host.network(id)).dump();
      case HcnObject::Endpoint:
        return host.endpoint_v2(host.endpoint(id)).dump();
      case HcnObject::Namespace:
        return host.namespace_v2(host.namespace_(id)).dump();
      case HcnObject::LoadBalancer:
        return host.load_balancer(id).to_json().dump();
      case HcnObject::SdnRoute:
        return host.sdn_route(id).to_json().dump();
    }
    return {};
  });
  HcnReply reply = reply_of(outcome, *impl_);
  impl_->finish(
      "Hcn" + op,
      [&] {
        return Json{{"Handle", impl_->describe_handle(handle)}, {"Query", Journal::embed(query)}};
      },
      reply.hr, reply.ok() ? reply.output : reply.error_record, outcome);
  return reply;
}

HcnReply Emulator::remove(HcnObject kind, const Guid& id) {
  std::string op = operation_name("Delete", kind);
  Outcome outcome = impl_->run(op, kind, Access::Write, [&](Host& host) -> std::string {
    require_api_v2(host);
    switch (kind) {
      case HcnObject::Network:
        host.delete_network(id);
        break;
      case HcnObject::Endpoint:
        host.delete_endpoint(id);
        break;
      case HcnObject::Namespace:
        host.delete_namespace(id);
        break;
      case HcnObject::LoadBalancer:
        host.delete_load_balancer(id);
        break;
      case HcnObject::SdnRoute:
        host.delete_sdn_route(id);
        break;
    }
    return {};
  });
  HcnReply reply = reply_of(outcome, *impl_);
  impl_->finish(
      "Hcn" + op,
      [&] {
        return Json{{"Id", id.str()}};
      },
      reply.hr, reply.error_record, outcome);
  return reply;
}

void Emulator::close(HcnObject kind, HcnHandle handle) {
  Json described = impl_->journal.enabled() ? impl_->describe_handle(handle) : Json();
  impl_->close_handle(handle);
  impl_->journal.record("HcnClose" + std::string(object_name(kind)),
                        [&] {
                          return Json{{"Handle", described}};
                        },
                        hr::kOk, {});
}

}  // namespace wincni::hns::emulator
