#include "wincni/hns/schema/policy.hpp"

#include <array>
#include <charconv>

#include "wincni/cni/ip.hpp"
#include "wincni/cni/json_keys.hpp"
#include "wincni/hns/mac_address.hpp"
#include "wincni/hns/schema/json_io.hpp"

namespace wincni::hns {
namespace {

using cni::IpAddress;
using cni::IpPrefix;
using json_io::Json;

enum class Api { V1, V2 };

// Protocol names the CNI plugins accept (pkg/hns ApplyPortMappingPolicy).
struct ProtocolName {
  std::string_view name;
  std::uint32_t number;
};
constexpr std::array kProtocolNames{ProtocolName{"icmpv4", 1}, ProtocolName{"igmp", 2}, ProtocolName{"tcp", 6},
                                    ProtocolName{"udp", 17}, ProtocolName{"icmpv6", 58}};

// --- field readers and writers, one overload per field type ---------------

void read_value(const Json& source, const char* key, std::string& out, Api) { out = json_io::read_string(source, key); }
void read_value(const Json& source, const char* key, bool& out, Api) { out = json_io::read_bool(source, key); }
void read_value(const Json& source, const char* key, std::vector<std::string>& out, Api) {
  out = json_io::read_strings(source, key);
}
template <typename Unsigned>
requires std::is_unsigned_v<Unsigned>
void read_value(const Json& source, const char* key, Unsigned& out, Api) {
  out = json_io::read_uint<Unsigned>(source, key);
}
void read_value(const Json& source, const char* key, IpProtocol& out, Api) {
  const Json* value = json_io::field(source, key);
  if (!value) return;
  // v2 sends numbers, v1 strings; accept both in either API as HNS does.
  if (value->is_string()) {
    if (!parse_ip_protocol(value->get<std::string>(), out)) {
      throw SchemaError(SchemaError::Kind::Value, key, "unknown protocol \"" + value->get<std::string>() + "\"");
    }
    return;
  }
  out.number = json_io::read_uint<std::uint32_t>(source, key);
}

void write_value(Json& target, const char* key, const std::string& value, Api) {
  json_io::put_string(target, key, value);
}
void write_value(Json& target, const char* key, bool value, Api) { json_io::put_bool(target, key, value); }
void write_value(Json& target, const char* key, const std::vector<std::string>& value, Api) {
  json_io::put_strings(target, key, value);
}
template <typename Unsigned>
requires std::is_unsigned_v<Unsigned>
void write_value(Json& target, const char* key, Unsigned value, Api) { json_io::put_uint(target, key, value); }
void write_value(Json& target, const char* key, const IpProtocol& value, Api api) {
  if (value.number == 0) return;
  if (api == Api::V2) {
    target[key] = value.number;
    return;
  }
  target[key] = ip_protocol_name(value.number);
}

struct FieldReader {
  const Json& source;
  Api api;
  template <typename T>
  void operator()(const char* v2_key, const char* v1_key, T& value) {
    const char* key = api == Api::V2 ? v2_key : v1_key;
    if (key) read_value(source, key, value, api);
  }
};

struct FieldWriter {
  Json& target;
  Api api;
  template <typename T>
  void operator()(const char* v2_key, const char* v1_key, const T& value) {
    const char* key = api == Api::V2 ? v2_key : v1_key;
    if (key) write_value(target, key, value, api);
  }
};

// --- type names ------------------------------------------------------------

constexpr size_t kModelledTypes = std::variant_size_v<PolicySettings> - 1;  // all but OtherPolicy

// Emplaces the modelled alternative named `name` (ignoring case) in `api`'s
// naming; false when no modelled type has that name.
template <size_t I = 0>
bool emplace_by_name(std::string_view name, Api api, PolicySettings& out) {
  if constexpr (I < kModelledTypes) {
    using T = std::variant_alternative_t<I, PolicySettings>;
    const char* type_name = api == Api::V2 ? T::kV2Type : T::kV1Type;
    if (type_name && cni::equals_ignore_case(type_name, name)) {
      out.template emplace<I>();
      return true;
    }
    return emplace_by_name<I + 1>(name, api, out);
  } else {
    return false;
  }
}

// Types HNS knows that the model carries as opaque settings.
struct OtherType {
  std::string_view name;
  unsigned scopes;
  std::optional<Feature> feature;
};
constexpr std::array kOtherTypes{
    OtherType{"L4WFPPROXY", kEndpointScope, Feature::L4WfpProxy},
    OtherType{"PortName", kEndpointScope, std::nullopt},
    OtherType{"Iov", kEndpointScope, std::nullopt},
    OtherType{"InterfaceConstraint", kEndpointScope | kNetworkScope, std::nullopt},
    OtherType{"TierAcl", kEndpointScope, Feature::TierAcl},
    OtherType{"L2Driver", kEndpointScope, std::nullopt},
    OtherType{"VSwitchExtension", kNetworkScope, std::nullopt},
    OtherType{"SetPolicy", kNetworkScope, Feature::SetPolicy},
    OtherType{"LayerConstraint", kNetworkScope, std::nullopt},
    OtherType{"NetworkACL", kNetworkScope, Feature::NetworkAcl},
    // v1-only types (kube-proxy's ELB, the old Isolation/VNET markers).
    OtherType{"ELB", kEndpointScope, std::nullopt},
    OtherType{"Isolation", kNetworkScope, std::nullopt},
    OtherType{"VNET", kNetworkScope, std::nullopt},
};

const OtherType* find_other_type(std::string_view name) {
  for (const auto& other : kOtherTypes) {
    if (cni::equals_ignore_case(other.name, name)) return &other;
  }
  return nullptr;
}

std::string read_type(const Json& value) {
  if (!value.is_object()) throw SchemaError(SchemaError::Kind::Type, "Policies", "each policy must be an object");
  std::string type = json_io::read_string(value, "Type");
  if (type.empty()) throw SchemaError(SchemaError::Kind::Value, "Type", "a policy needs a Type");
  return type;
}

OtherPolicy make_other(std::string type, Json settings) {
  OtherPolicy other;
  if (const OtherType* known = find_other_type(type)) {
    other.type = std::string(known->name);
    other.known = true;
    other.scopes = known->scopes;
  } else {
    other.type = std::move(type);
  }
  other.settings = std::move(settings);
  return other;
}

// Fills a modelled alternative's fields from `source`.
void read_fields(PolicySettings& settings, const Json& source, Api api) {
  std::visit(
      [&](auto& policy) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(policy)>, OtherPolicy>) {
          FieldReader reader{source, api};
          policy.visit(reader);
        }
      },
      settings);
}

Policy parse_with_names_unchecked(const Json& value, Api shape, std::initializer_list<Api> namings) {
  std::string type = read_type(value);
  Json source = shape == Api::V2 ? json_io::read_object(value, "Settings") : value;
  Policy policy;
  for (Api naming : namings) {
    if (emplace_by_name(type, naming, policy.settings)) {
      read_fields(policy.settings, source, shape);
      return policy;
    }
  }
  if (shape == Api::V1) {
    for (auto it = source.begin(); it != source.end();) {
      it = cni::equals_ignore_case(it.key(), "Type") ? source.erase(it) : std::next(it);
    }
  }
  policy.settings = make_other(std::move(type), std::move(source));
  return policy;
}

// Any shape problem inside a policy is reported as a policy problem, which
// is what HNS answers with HCN_E_INVALID_POLICY.
Policy parse_with_names(const Json& value, Api shape, std::initializer_list<Api> namings) {
  try {
    return parse_with_names_unchecked(value, shape, namings);
  } catch (const SchemaError& error) {
    throw SchemaError(SchemaError::Kind::Policy, error.field(), error.problem());
  }
}

// --- semantic checks -------------------------------------------------------

bool is_address(std::string_view text) { return IpAddress::parse(text).has_value(); }
bool is_prefix(std::string_view text) { return IpPrefix::parse(text).has_value(); }

std::string expect_address(std::string_view field, const std::string& text, bool optional) {
  if (text.empty()) return optional ? std::string{} : std::string(field) + " is required";
  return is_address(text) ? std::string{} : std::string(field) + " \"" + text + "\" is not an IP address";
}

std::string expect_prefix(std::string_view field, const std::string& text) {
  if (text.empty()) return std::string(field) + " is required";
  return is_prefix(text) ? std::string{} : std::string(field) + " \"" + text + "\" is not an IP prefix";
}

std::string expect_mac(std::string_view field, const std::string& text) {
  if (text.empty()) return std::string(field) + " is required";
  return MacAddress::parse(text) ? std::string{} : std::string(field) + " \"" + text + "\" is not a MAC address";
}

}  // namespace

std::string ip_protocol_name(std::uint32_t number) {
  for (const auto& known : kProtocolNames) {
    if (known.number == number) return std::string(known.name);
  }
  return std::to_string(number);
}

bool parse_ip_protocol(std::string_view text, IpProtocol& out) {
  for (const auto& known : kProtocolNames) {
    if (cni::equals_ignore_case(known.name, text)) {
      out.number = known.number;
      return true;
    }
  }
  std::uint32_t number = 0;
  int base = 10;
  std::string_view digits = text;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    base = 16;
    digits.remove_prefix(2);
  }
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), number, base);
  if (digits.empty() || error != std::errc{} || end != digits.data() + digits.size() || number > 255) return false;
  out.number = number;
  return true;
}

// --- per-type problems -------------------------------------------------------

std::string OutboundNatPolicy::problem() const {
  if (auto bad = expect_address("VirtualIP", virtual_ip, true); !bad.empty()) return bad;
  for (const auto& exception : exceptions) {
    if (!is_address(exception) && !is_prefix(exception)) {
      return "exception \"" + exception + "\" is neither an IP address nor a prefix";
    }
  }
  for (const auto& destination : destinations) {
    if (auto bad = expect_address("destination", destination, false); !bad.empty()) return bad;
  }
  return {};
}

std::string PortMappingPolicy::problem() const {
  // HNS maps TCP and UDP only.
  if (protocol.number != 6 && protocol.number != 17) {
    return "protocol " + std::to_string(protocol.number) + " cannot be mapped (only TCP 6 and UDP 17)";
  }
  return expect_address("VIP", vip, true);
}

std::string AclPolicy::problem() const {
  if (!action.empty() && !cni::equals_ignore_case(action, "Allow") && !cni::equals_ignore_case(action, "Block") &&
      !cni::equals_ignore_case(action, "Pass")) {
    return "Action \"" + action + "\" is not Allow, Block or Pass";
  }
  if (!direction.empty() && !cni::equals_ignore_case(direction, "In") && !cni::equals_ignore_case(direction, "Out")) {
    return "Direction \"" + direction + "\" is not In or Out";
  }
  return {};
}

std::string SdnRoutePolicy::problem() const {
  if (auto bad = expect_prefix("DestinationPrefix", destination_prefix); !bad.empty()) return bad;
  return expect_address("NextHop", next_hop, true);
}

std::string ProviderAddressPolicy::problem() const {
  return expect_address("ProviderAddress", provider_address, false);
}

std::string L4ProxyPolicy::problem() const {
  if (auto bad = expect_address("IP", ip, true); !bad.empty()) return bad;
  if (!port.empty()) {
    unsigned number = 0;
    auto [end, error] = std::from_chars(port.data(), port.data() + port.size(), number);
    if (error != std::errc{} || end != port.data() + port.size() || number > 65535) {
      return "Port \"" + port + "\" is not a port number";
    }
  }
  return {};
}

std::string SourceMacAddressPolicy::problem() const { return expect_mac("SourceMacAddress", source_mac_address); }

std::string NetAdapterNamePolicy::problem() const {
  return network_adapter_name.empty() ? "NetworkAdapterName is required" : std::string{};
}

std::string DrMacAddressPolicy::problem() const { return expect_mac("Address", address); }

std::string RemoteSubnetRoutePolicy::problem() const {
  if (auto bad = expect_prefix("DestinationPrefix", destination_prefix); !bad.empty()) return bad;
  if (auto bad = expect_address("ProviderAddress", provider_address, false); !bad.empty()) return bad;
  if (distributed_router_mac_address.empty()) return {};
  return expect_mac("DistributedRouterMacAddress", distributed_router_mac_address);
}

std::string VxlanPortPolicy::problem() const { return port == 0 ? "Port must not be 0" : std::string{}; }

std::string VlanPolicy::problem() const {
  return isolation_id == 0 || isolation_id > 4094 ? "VLAN " + std::to_string(isolation_id) + " is not in 1-4094"
                                                  : std::string{};
}

std::string VsidPolicy::problem() const {
  if (isolation_id < kMinimum || isolation_id > kMaximum) {
    return "VSID " + std::to_string(isolation_id) + " is not in " + std::to_string(kMinimum) + "-" +
           std::to_string(kMaximum);
  }
  return {};
}

// --- Policy ---------------------------------------------------------------------

std::string Policy::type() const {
  return std::visit(
      [](const auto& policy) -> std::string {
        using T = std::decay_t<decltype(policy)>;
        if constexpr (std::is_same_v<T, OtherPolicy>) {
          return policy.type;
        } else {
          return T::kV2Type;
        }
      },
      settings);
}

unsigned Policy::scopes() const {
  return std::visit(
      [](const auto& policy) -> unsigned {
        using T = std::decay_t<decltype(policy)>;
        if constexpr (std::is_same_v<T, OtherPolicy>) {
          return policy.scopes;
        } else {
          return T::kScopes;
        }
      },
      settings);
}

bool Policy::known() const {
  const auto* other = as<OtherPolicy>();
  return !other || other->known;
}

std::string Policy::problem() const {
  return std::visit(
      [](const auto& policy) -> std::string {
        using T = std::decay_t<decltype(policy)>;
        if constexpr (std::is_same_v<T, OtherPolicy>) {
          return policy.settings.is_object() ? std::string{} : "Settings must be an object";
        } else {
          return policy.problem();
        }
      },
      settings);
}

std::optional<Feature> Policy::required_feature() const {
  if (as<VxlanPortPolicy>()) return Feature::VxlanPort;
  if (as<L4ProxyPolicy>()) return Feature::L4Proxy;
  if (as<RemoteSubnetRoutePolicy>()) return Feature::RemoteSubnet;
  if (as<HostRoutePolicy>()) return Feature::HostRoute;
  if (as<AclPolicy>()) return Feature::Acl;
  if (const auto* other = as<OtherPolicy>()) {
    if (const OtherType* known = find_other_type(other->type)) return known->feature;
  }
  return std::nullopt;
}

Policy parse_policy_v2(const Json& value) { return parse_with_names(value, Api::V2, {Api::V2}); }

Policy parse_policy_v1(const Json& value) { return parse_with_names(value, Api::V1, {Api::V1, Api::V2}); }

Policy parse_policy_any(const Json& value) {
  bool v2_shape =
      value.is_object() && json_io::field(value, "Settings") && json_io::field(value, "Settings")->is_object();
  return v2_shape ? parse_with_names(value, Api::V2, {Api::V2, Api::V1})
                  : parse_with_names(value, Api::V1, {Api::V1, Api::V2});
}

Json render_v2(const Policy& policy) {
  Json settings = Json::object();
  std::visit(
      [&](const auto& typed) {
        using T = std::decay_t<decltype(typed)>;
        if constexpr (std::is_same_v<T, OtherPolicy>) {
          settings = typed.settings;
        } else {
          FieldWriter writer{settings, Api::V2};
          T copy = typed;  // visit() is shared with the readers, so not const
          copy.visit(writer);
        }
      },
      policy.settings);
  return Json{{"Type", policy.type()}, {"Settings", std::move(settings)}};
}

Json render_v1(const Policy& policy) {
  Json flat = Json::object();
  std::string type = std::visit(
      [&](const auto& typed) -> std::string {
        using T = std::decay_t<decltype(typed)>;
        if constexpr (std::is_same_v<T, OtherPolicy>) {
          if (typed.settings.is_object()) flat = typed.settings;
          return typed.type;
        } else {
          FieldWriter writer{flat, Api::V1};
          T copy = typed;
          copy.visit(writer);
          return T::kV1Type ? T::kV1Type : T::kV2Type;
        }
      },
      policy.settings);
  flat["Type"] = std::move(type);
  return flat;
}

std::vector<Policy> parse_policies_v2(const Json& array) {
  std::vector<Policy> policies;
  for (const auto& item : array) policies.push_back(parse_policy_v2(item));
  return policies;
}

std::vector<Policy> parse_policies_v1(const Json& array) {
  std::vector<Policy> policies;
  for (const auto& item : array) policies.push_back(parse_policy_v1(item));
  return policies;
}

Json render_policies_v2(const std::vector<Policy>& policies) {
  Json array = Json::array();
  for (const auto& policy : policies) array.push_back(render_v2(policy));
  return array;
}

Json render_policies_v1(const std::vector<Policy>& policies) {
  Json array = Json::array();
  for (const auto& policy : policies) array.push_back(render_v1(policy));
  return array;
}

}  // namespace wincni::hns
