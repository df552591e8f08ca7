#include "filter.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "failure.hpp"
#include "wincni/cni/json_keys.hpp"
#include "wincni/hns/guid.hpp"

namespace wincni::hns::emulator {
namespace {

// The properties of HNS's v1 networks, endpoints and namespaces
// (hcsshim internal/hns), as the emulator's v1 views write them.
constexpr std::array<std::string_view, 33> kV1Properties{
    "ID",
    "Name",
    "Type",
    "Policies",
    "MacPools",
    "DNSSuffix",
    "DNSServerList",
    "DNSServerCompartment",
    "ManagementIP",
    "AutomaticDNS",
    "Subnets",
    "SourceMac",
    "NetworkAdapterName",
    "EnableLowMetric",
    "DisableICC",
    "VirtualNetwork",
    "VirtualNetworkName",
    "IPAddress",
    "MacAddress",
    "GatewayAddress",
    "PrefixLength",
    "EnableInternalDNS",
    "DNSDomain",
    "IsRemoteEndpoint",
    "SharedContainers",
    "State",
    "EncapOverhead",
    "VirtualNicName",
    "Namespace",
    "ContainerId",
    "IsDefault",
    "CompartmentId",
    "ResourceList",
};

bool same_value(const nlohmann::json& wanted, const nlohmann::json& actual) {
  if (wanted.is_string() && actual.is_string()) {
    const auto& a = wanted.get_ref<const std::string&>();
    const auto& b = actual.get_ref<const std::string&>();
    return a == b || same_guid(a, b);
  }
  return wanted == actual;
}

}  // namespace

void require_v1_filter_keys(const nlohmann::json& filter) {
  if (!filter.is_object()) return;
  for (const auto& item : filter.items()) {
    // Not a structured binding: clang before 16 cannot capture one.
    const std::string& key = item.key();
    const bool known = std::any_of(kV1Properties.begin(), kV1Properties.end(),
                                   [&](std::string_view property) { return cni::equals_ignore_case(property, key); });
    if (!known) {
      throw HcnFailure(hr::kInvalidArg, "filter key \"" + key +
                                            "\" is no property of HNS's v1 objects, which HNS filters on "
                                            "(WINCNI_EMULATOR_FILTER_KEYS=either matches the v2 view too)");
    }
  }
}

bool matches_filter(const nlohmann::json& filter, const nlohmann::json& v2_view, const nlohmann::json& v1_view) {
  for (const auto& [key, wanted] : filter.items()) {
    const nlohmann::json* actual = v2_view.is_null() ? nullptr : cni::find_key(v2_view, key);
    if (!actual) actual = cni::find_key(v1_view, key);
    // A property the object lacks reads as false/absent: {"IsDefault":false}
    // matches an object that never says IsDefault.
    if (!actual) {
      if (wanted == false) continue;
      return false;
    }
    if (!same_value(wanted, *actual)) return false;
  }
  return true;
}

}  // namespace wincni::hns::emulator
