#include "commands/required_features.hpp"

#include <fmt/format.h>

namespace wincni::engine {

namespace {

void require(Invocation& invocation, hns::Feature feature, std::string_view setting, std::string_view what,
             std::string_view versions) {
  if (invocation.access->supports(feature)) return;
  throw cni::Error(cni::kUnsupportedField, fmt::format("{} needs HNS with {} support ({}); this host's HNS is {}",
                                                       setting, what, versions, invocation.access->version().str()));
}

void require_carried(const Invocation& invocation, const cni::IpPrefix& address, std::string_view what) {
  if (invocation.flavor.carries(address.family())) return;
  throw cni::Error(
      cni::kUnsupportedField,
      fmt::format("{} {} is IPv{}, which {} networks do not carry ({} gives pods IPv{} addresses only)", what,
                  address.str(), address.address().is_v4() ? 4 : 6, invocation.flavor.accepted_types(),
                  invocation.flavor.plugin_name(), address.address().is_v4() ? 6 : 4));
}

}  // namespace

void require_config_features(Invocation& invocation) {
  const EndpointConfig& config = invocation.config;
  if (config.loopback_dsr) require(invocation, hns::Feature::Dsr, "loopbackDSR", "DSR", "9.3-9.x, 10.2 and later");
  if (config.ipam_type.empty()) {
    if (auto why = invocation.flavor.needs_ipam(invocation.api)) {
      throw cni::Error(cni::kInvalidNetworkConfig,
                       fmt::format("{} on HNS v{} needs an \"ipam\" section (host-local): {}",
                                   invocation.flavor.plugin_name(), static_cast<int>(invocation.api), *why));
    }
  }
  for (const IpamRange& range : config.ipam_ranges) require_carried(invocation, range.subnet, "the ipam range");
}

void require_address_features(Invocation& invocation, const std::vector<cni::IpPrefix>& addresses) {
  for (const cni::IpPrefix& address : addresses) require_carried(invocation, address, "the address");
  for (const cni::IpPrefix& address : addresses) {
    if (!address.address().is_v4()) {
      require(invocation, hns::Feature::Ipv6DualStack, fmt::format("the IPv6 address {}", address.str()), "dual-stack",
              "11.10 and later");
      return;
    }
  }
}

}  // namespace wincni::engine
