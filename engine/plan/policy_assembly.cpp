#include "plan/policy_assembly.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "wincni/cni/error.hpp"

namespace wincni::engine {

namespace {

using hns::OutboundNatPolicy;

enum class ExceptionFamily { None, V4, V6, Mixed };

std::optional<cni::IpFamily> family_of(const std::string& exception) {
  if (auto prefix = cni::IpPrefix::parse(exception)) return prefix->family();
  if (auto address = cni::IpAddress::parse(exception)) return address->family();
  return std::nullopt;
}

ExceptionFamily exception_family(const OutboundNatPolicy& nat) {
  ExceptionFamily result = ExceptionFamily::None;
  for (const std::string& exception : nat.exceptions) {
    const auto family = family_of(exception);
    const ExceptionFamily one = !family                        ? ExceptionFamily::Mixed
                                : *family == cni::IpFamily::V4 ? ExceptionFamily::V4
                                                               : ExceptionFamily::V6;
    if (result == ExceptionFamily::None) {
      result = one;
    } else if (result != one) {
      return ExceptionFamily::Mixed;
    }
  }
  return result;
}

bool mergeable(const OutboundNatPolicy& a, const OutboundNatPolicy& b) {
  if (!a.destinations.empty() || !b.destinations.empty()) return false;
  if (a.virtual_ip != b.virtual_ip || a.flags != b.flags || a.max_port_pool_usage != b.max_port_pool_usage) {
    return false;
  }
  const ExceptionFamily fa = exception_family(a);
  const ExceptionFamily fb = exception_family(b);
  return fa == fb || fa == ExceptionFamily::None || fb == ExceptionFamily::None;
}

// Exceptions compare by what they mean: "10.0.0.0/8" and "10.0.0.0/08" are
// one. A prefix goes to HNS as its network ("10.244.0.1/16" as
// "10.244.0.0/16"): a Windows Server 2022 host refused an endpoint whose
// exception had host bits (docs/reference: hcsshim issue 1951).
std::string canonical_exception(const std::string& exception) {
  if (auto prefix = cni::IpPrefix::parse(exception)) return prefix->network().str();
  if (auto address = cni::IpAddress::parse(exception)) return address->str();
  return exception;
}

void add_exceptions(OutboundNatPolicy& into, const std::vector<std::string>& exceptions) {
  for (const std::string& exception : exceptions) {
    std::string canonical = canonical_exception(exception);
    if (std::find(into.exceptions.begin(), into.exceptions.end(), canonical) == into.exceptions.end()) {
      into.exceptions.push_back(std::move(canonical));
    }
  }
}

// A route's destination goes to HNS as its network, as exceptions do.
void canonicalise_route(hns::Policy& policy) {
  if (auto* route = policy.as<hns::SdnRoutePolicy>()) {
    if (auto prefix = cni::IpPrefix::parse(route->destination_prefix))
      route->destination_prefix = prefix->network().str();
  }
}

class Assembly {
 public:
  void add(hns::Policy policy, std::string origin) {
    canonicalise_route(policy);
    if (auto* nat = policy.as<OutboundNatPolicy>(); nat && nat->destinations.empty()) {
      for (AssembledPolicy& existing : policies_) {
        auto* target = existing.policy.as<OutboundNatPolicy>();
        if (target && mergeable(*target, *nat)) {
          add_exceptions(*target, nat->exceptions);
          return;
        }
      }
      std::vector<std::string> exceptions = std::move(nat->exceptions);
      nat->exceptions.clear();
      add_exceptions(*nat, exceptions);
    }
    for (const AssembledPolicy& existing : policies_) {
      if (existing.policy == policy) return;
    }
    policies_.push_back(AssembledPolicy{std::move(policy), std::move(origin)});
  }

  std::vector<AssembledPolicy> take() { return std::move(policies_); }

 private:
  std::vector<AssembledPolicy> policies_;
};

hns::Policy port_mapping(const PortMapping& mapping, std::uint32_t flags, const std::string& vip) {
  hns::PortMappingPolicy policy;
  policy.protocol = mapping.protocol;
  policy.internal_port = mapping.container_port;
  policy.external_port = mapping.host_port;
  policy.vip = vip;
  policy.flags = flags;
  return hns::Policy{policy};
}

hns::Policy inbound_acl(const PortMapping& mapping) {
  // What Microsoft's sdnbridge adds for allowAclPortMapping.
  hns::AclPolicy acl;
  acl.protocols = std::to_string(mapping.protocol.number);
  acl.action = "Allow";
  acl.direction = "In";
  acl.local_ports = std::to_string(mapping.container_port);
  acl.priority = 1000;
  return hns::Policy{acl};
}

bool has_family(const std::vector<cni::IpAddress>& addresses, cni::IpFamily family) {
  return std::any_of(addresses.begin(), addresses.end(), [&](const auto& a) { return a.family() == family; });
}

void add_port_mappings(const PolicyInputs& inputs, Assembly& assembly) {
  const std::uint32_t base_flags = inputs.local_routed_port_mapping ? hns::PortMappingPolicy::kLocalRoutedVip : 0;
  const bool pod_v4 = has_family(inputs.pod_addresses, cni::IpFamily::V4);
  const bool pod_v6 = has_family(inputs.pod_addresses, cni::IpFamily::V6);
  for (size_t i = 0; i < inputs.port_mappings.size(); ++i) {
    const PortMapping& mapping = inputs.port_mappings[i];
    const std::string origin = fmt::format("runtimeConfig.portMappings[{}]", i);
    const std::string vip = mapping.host_ip ? mapping.host_ip->str() : std::string{};
    const bool v4 = mapping.host_ip ? mapping.host_ip->is_v4() : pod_v4;
    const bool v6 = mapping.host_ip ? !mapping.host_ip->is_v4() : pod_v6;
    if (v4) assembly.add(port_mapping(mapping, base_flags, vip), origin);
    if (v6) assembly.add(port_mapping(mapping, base_flags | hns::PortMappingPolicy::kIpv6, vip), origin);
    if (inputs.allow_acl_port_mapping) assembly.add(inbound_acl(mapping), origin + " (allowAclPortMapping)");
  }
}

void add_loopback_dsr(const PolicyInputs& inputs, Assembly& assembly) {
  if (!inputs.loopback_dsr) return;
  OutboundNatPolicy dsr;
  for (const cni::IpAddress& address : inputs.pod_addresses) {
    if (address.is_v4()) dsr.destinations.push_back(address.str());
  }
  if (dsr.destinations.empty()) {
    throw cni::Error(cni::kUnsupportedField, "loopbackDSR needs an IPv4 address on the endpoint");
  }
  assembly.add(hns::Policy{dsr}, "loopbackDSR");
}

}  // namespace

std::vector<AssembledPolicy> assemble_endpoint_policies(const PolicyInputs& inputs) {
  Assembly assembly;
  for (const ConfigPolicy& entry : inputs.config_policies) {
    if (entry.target == PolicyTarget::Endpoint) assembly.add(entry.policy, entry.origin);
  }
  for (const cni::IpPrefix& exception : inputs.nat_exceptions) {
    OutboundNatPolicy nat;
    nat.exceptions.push_back(exception.str());
    assembly.add(hns::Policy{nat}, "ipMasq");
  }
  add_port_mappings(inputs, assembly);
  add_loopback_dsr(inputs, assembly);
  if (inputs.provider_address) {
    hns::ProviderAddressPolicy pa;
    pa.provider_address = inputs.provider_address->str();
    assembly.add(hns::Policy{pa}, "provider address");
  }
  return assembly.take();
}

std::vector<hns::Policy> policies_for_api(const std::vector<AssembledPolicy>& policies, HnsApi api) {
  std::vector<hns::Policy> typed;
  typed.reserve(policies.size());
  for (const AssembledPolicy& entry : policies) {
    if (api == HnsApi::V1 && !(hns::parse_policy_v1(hns::render_v1(entry.policy)) == entry.policy)) {
      throw cni::Error(cni::kUnsupportedField,
                       fmt::format("{}: {} {} cannot be expressed in HNS v1 (apiVersion 1); set \"apiVersion\": 2",
                                   entry.origin, entry.policy.type(), hns::render_v2(entry.policy)["Settings"].dump()));
    }
    typed.push_back(entry.policy);
  }
  return typed;
}

nlohmann::json render_policies(const std::vector<hns::Policy>& policies, HnsApi api) {
  nlohmann::json rendered = nlohmann::json::array();
  for (const hns::Policy& policy : policies)
    rendered.push_back(api == HnsApi::V2 ? hns::render_v2(policy) : hns::render_v1(policy));
  return rendered;
}

}  // namespace wincni::engine
