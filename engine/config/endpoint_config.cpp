#include "config/endpoint_config.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "wincni/cni/config_fields.hpp"
#include "config/config_policy.hpp"
#include "config/config_route.hpp"
#include "config/dns_settings.hpp"
#include "config/explicit_gateways.hpp"
#include "config/ipam_ranges.hpp"
#include "config/port_mapping.hpp"
#include "wincni/cni/json_keys.hpp"
#include "wincni/cni/unknown_keys.hpp"
#include "wincni/hns/guid.hpp"

namespace wincni::engine {

using Json = nlohmann::json;

namespace {

std::optional<HnsApi> read_api_version(const Json& config) {
  const auto version = cni::kConfigFields.read_integer(config, "apiVersion", "", 0, 2);
  if (!version || *version == 0) return std::nullopt;  // Go's zero value: not set
  return *version == 2 ? HnsApi::V2 : HnsApi::V1;
}

std::optional<cni::IpPrefix> read_ip_masq_network(const Json& config) {
  const auto text = cni::kConfigFields.read_string(config, "ipMasqNetwork", "");
  if (!text || text->empty()) return std::nullopt;
  // The network, whatever host bits the config has ("10.244.0.1/16").
  if (auto prefix = cni::IpPrefix::parse(*text)) return prefix->network();
  if (auto address = cni::IpAddress::parse(*text)) return cni::IpPrefix(*address, address->bits());
  cni::kConfigFields.fail("ipMasqNetwork", fmt::format("\"{}\" is neither an IP prefix nor an address", *text));
}

OptionalFlags read_optional_flags(const Json& config, std::vector<std::string>& warnings) {
  OptionalFlags flags;
  const Json* object = cni::kConfigFields.read_object(config, "optionalFlags", "");
  if (object == nullptr) return flags;
  struct Known {
    std::string_view key;
    bool OptionalFlags::*field;
  };
  static constexpr Known kKnown[] = {
      {"allowAclPortMapping", &OptionalFlags::allow_acl_port_mapping},
      {"enableDualStack", &OptionalFlags::enable_dual_stack},
      {"gatewayFromAdditionalRoutes", &OptionalFlags::gateway_from_additional_routes},
      {"forceBridgeGateway", &OptionalFlags::force_bridge_gateway},
      {"loopbackDSR", &OptionalFlags::loopback_dsr},
  };
  for (const auto& item : object->items()) {
    if (cni::equals_ignore_case(item.key(), "localRoutedPortMapping")) {
      // Unset and false differ: unset is on for HCN port mappings.
      flags.local_routed_port_mapping = cni::kConfigFields.read_bool(*object, item.key(), "optionalFlags");
      continue;
    }
    const Known* known = nullptr;
    for (const Known& candidate : kKnown) {
      if (cni::equals_ignore_case(candidate.key, item.key())) known = &candidate;
    }
    if (known == nullptr) {
      warnings.push_back(fmt::format("optionalFlags.{} is not a flag this plugin knows; ignored", item.key()));
      continue;
    }
    if (auto value = cni::kConfigFields.read_bool(*object, item.key(), "optionalFlags")) flags.*(known->field) = *value;
  }
  return flags;
}

std::chrono::milliseconds read_network_wait(const Json& config) {
  const auto seconds = cni::kConfigFields.read_number(config, "networkWaitSeconds", "");
  if (!seconds) return std::chrono::seconds(10);
  if (*seconds < 0 || *seconds > 3600) cni::kConfigFields.fail("networkWaitSeconds", "must be within 0-3600");
  return std::chrono::milliseconds(static_cast<long long>(std::llround(*seconds * 1000)));
}

std::string read_mac_prefix(const Json& config) {
  const auto prefix = cni::kConfigFields.read_string(config, "endpointMacPrefix", "");
  if (!prefix || prefix->empty()) return {};
  const std::string& text = *prefix;
  const bool well_formed = text.size() == 5 && text[2] == '-' && std::isxdigit(static_cast<unsigned char>(text[0])) &&
                           std::isxdigit(static_cast<unsigned char>(text[1])) &&
                           std::isxdigit(static_cast<unsigned char>(text[3])) &&
                           std::isxdigit(static_cast<unsigned char>(text[4]));
  if (!well_formed) {
    cni::kConfigFields.fail("endpointMacPrefix",
                            fmt::format("\"{}\" is invalid, value must be of the format xx-xx", text));
  }
  return text;
}

std::optional<std::uint32_t> read_vni(const Json& config) {
  const auto vni = cni::kConfigFields.read_integer(config, "vni", "", 0, hns::VsidPolicy::kMaximum);
  if (!vni) return std::nullopt;
  if (*vni < hns::VsidPolicy::kMinimum) {
    cni::kConfigFields.fail(
        "vni", fmt::format("{} is below {}: Windows overlay networks need a VNI of at least {} (flanneld's "
                           "default, which Linux nodes of the cluster must use too)",
                           *vni, hns::VsidPolicy::kMinimum, hns::VsidPolicy::kMinimum));
  }
  return static_cast<std::uint32_t>(*vni);
}

std::optional<std::uint16_t> read_vxlan_port(const Json& config) {
  const auto port = cni::kConfigFields.read_integer(config, "vxlanPort", "", 1, 65535);
  if (!port) return std::nullopt;
  return static_cast<std::uint16_t>(*port);
}

// "By design, the DNS Suffix Search list in Windows is limited to 50
// entries" (docs/configuration.md, "Pod DNS"): the rest are not tried.
constexpr std::size_t kWindowsSearchListLimit = 50;

// The keys read above, beside the spec's, and those of "dns"
// (cni::decode_dns).
constexpr std::array<std::string_view, 14> kEndpointKeys{
    "apiVersion",     "ipMasq",           "ipMasqNetwork", "optionalFlags",      "loopbackDSR",       "policies",
    "AdditionalArgs", "additionalRoutes", "master",        "networkWaitSeconds", "endpointMacPrefix", "vni",
    "vxlanPort",      kPodNamespaceSearchKey};
constexpr std::array<std::string_view, 4> kDnsKeys{"nameservers", "domain", "search", "options"};

void warn_of_unknown_keys(const Json& raw, std::vector<std::string>& warnings) {
  for (std::string& warning : cni::unknown_key_warnings(raw, cni::kCommonConfigKeys, kEndpointKeys)) {
    warnings.push_back(std::move(warning));
  }
  if (const Json* dns = cni::find_key(raw, "dns")) {
    for (std::string& warning : cni::unknown_key_warnings(*dns, kDnsKeys, {}, "dns"))
      warnings.push_back(std::move(warning));
  }
}

std::optional<NetworkBlueprint> read_blueprint(const EndpointConfig& config) {
  if (config.adapter.empty() || config.ipam_ranges.empty()) return std::nullopt;
  NetworkBlueprint blueprint;
  blueprint.adapter = config.adapter;
  blueprint.dns = config.dns;
  for (const IpamRange& range : config.ipam_ranges) {
    const cni::IpPrefix subnet = range.subnet.network();
    if (std::find(blueprint.subnets.begin(), blueprint.subnets.end(), subnet) == blueprint.subnets.end()) {
      blueprint.subnets.push_back(subnet);
    }
  }
  for (const ConfigPolicy& entry : config.policies) {
    if (entry.target == PolicyTarget::Network) blueprint.policies.push_back(entry.policy);
  }
  return blueprint;
}

}  // namespace

EndpointConfig read_endpoint_config(const cni::NetConf& conf, std::string_view pod_namespace) {
  const Json& raw = conf.raw();
  EndpointConfig config;
  config.network = conf.name();
  config.plugin_type = conf.type();
  config.api = read_api_version(raw);
  config.ip_masq_network = read_ip_masq_network(raw);
  config.ip_masq = cni::kConfigFields.read_bool(raw, "ipMasq", "").value_or(false);
  config.flags = read_optional_flags(raw, config.warnings);
  config.loopback_dsr =
      cni::kConfigFields.read_bool(raw, "loopbackDSR", "").value_or(false) || config.flags.loopback_dsr;
  config.policies = read_config_policies(raw, config.warnings);
  config.dns = effective_dns(raw, pod_namespace);
  if (config.dns.search.size() > kWindowsSearchListLimit) {
    config.warnings.push_back(fmt::format(
        "the pod's DNS search list has {} entries: Windows' resolver uses only the first {} ({} on)",
        config.dns.search.size(), kWindowsSearchListLimit, config.dns.search[kWindowsSearchListLimit]));
  }
  if (const Json* runtime = cni::kConfigFields.read_object(raw, "runtimeConfig", ""))
    config.port_mappings = read_port_mappings(*runtime);

  config.ipam_type = conf.ipam_type();
  const Json& ipam = conf.ipam();
  config.ipam_ranges = read_ipam_ranges(ipam);
  if (ipam.is_object()) config.ipam_routes = read_config_routes(ipam, "routes", "ipam");
  config.additional_routes = read_config_routes(raw, "additionalRoutes", "");
  config.gateways = ExplicitGateways(
      config.ipam_ranges, config.ipam_routes,
      gateway_routes(config.additional_routes, config.flags.gateway_from_additional_routes, config.warnings));

  config.adapter = cni::kConfigFields.read_string(raw, "master", "").value_or("");
  config.network_wait = read_network_wait(raw);
  config.endpoint_mac_prefix = read_mac_prefix(raw);
  config.vni = read_vni(raw);
  config.vxlan_port = read_vxlan_port(raw);
  config.blueprint = read_blueprint(config);
  warn_of_unknown_keys(raw, config.warnings);
  return config;
}

EndpointConfig read_teardown_config(const cni::NetConf& conf) {
  EndpointConfig config;
  config.network = conf.name();
  config.plugin_type = conf.type();
  config.ipam_type = conf.ipam_type();
  try {
    config.api = read_api_version(conf.raw());
  } catch (const cni::Error& e) {
    config.warnings.push_back(e.msg() + "; the API follows CNI_NETNS");
  }
  return config;
}

std::optional<HnsApi> api_for_netns(std::string_view netns) {
  if (netns.empty()) return std::nullopt;
  if (hns::Guid::parse(netns)) return HnsApi::V2;
  return HnsApi::V1;
}

}  // namespace wincni::engine
