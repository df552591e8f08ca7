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

}  // namespace

void require_config_features(Invocation& invocation) {
  if (invocation.config.loopback_dsr) require(invocation, hns::Feature::Dsr, "loopbackDSR", "DSR", "9.3-9.x, 10.2 and later");
}

void require_address_features(Invocation& invocation, const std::vector<cni::IpPrefix>& addresses) {
  for (const cni::IpPrefix& address : addresses) {
    if (!address.address().is_v4()) {
      require(invocation, hns::Feature::Ipv6DualStack, fmt::format("the IPv6 address {}", address.str()),
              "dual-stack", "11.10 and later");
      return;
    }
  }
}

}  // namespace wincni::engine
