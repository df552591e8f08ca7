#include "wincni/cni/result.hpp"

#include <algorithm>
#include <limits>
#include <span>

#include <fmt/format.h>

#include "wincni/cni/error.hpp"
#include "wincni/cni/json_keys.hpp"

// The shapes and conversions mirror Go's libcni (pkg/types/020, 040, 100 and
// internal/convert.go, see docs/reference/cni-protocol.md §1), because runtimes and
// chained plugins parse our output with it:
//  - 0.1.0/0.2.0 ("legacy"): ip4/ip6 objects. Converting down keeps the first
//    address of each family and only dst/gw of the routes whose family has an
//    address.
//  - 0.3.0/0.3.1/0.4.0: interfaces, ips with "version", routes, "dns":{}
//    always (Go's DNS is a struct, which omitempty never omits). Interface
//    mtu/socketPath/pciID do not exist there; route extras do, because the
//    route type is shared by every version.
//  - 1.0.0/1.1.0: one Go type serves both, so 1.0.0 carries the 1.1 extras
//    exactly like 1.1.0 does; only the label differs. Go's 1.x MarshalJSON
//    drops an empty dns by re-marshalling through a map, which also sorts
//    every object's keys: we do the same so the bytes match.

namespace wincni::cni {
namespace {

using ojson = nlohmann::ordered_json;

enum class Family { Legacy, V04, V1 };

struct FamilyVersions {
  Family family;
  std::span<const std::string_view> versions;
  // Go's supportedVersions as its "%v" prints them in the mismatch error
  // (the 0.2 family lists "" too, printed as an empty element).
  std::string_view go_supported_list;
};

constexpr std::string_view kLegacyVersions[] = {"0.1.0", "0.2.0"};
constexpr std::string_view kV04Versions[] = {"0.3.0", "0.3.1", "0.4.0"};
constexpr std::string_view kV1Versions[] = {"1.0.0", "1.1.0"};

constexpr FamilyVersions kFamilies[] = {
    {Family::Legacy, kLegacyVersions, "[ 0.1.0 0.2.0]"},
    {Family::V04, kV04Versions, "[0.3.0 0.3.1 0.4.0]"},
    {Family::V1, kV1Versions, "[1.0.0 1.1.0]"},
};

bool lists(const FamilyVersions& family, std::string_view version) {
  return std::find(family.versions.begin(), family.versions.end(), version) != family.versions.end();
}

const FamilyVersions& family_of(std::string_view version) {
  for (const auto& family : kFamilies) {
    if (lists(family, version)) return family;
  }
  throw Error(kIncompatibleVersion, fmt::format("unsupported CNI result version \"{}\"", version));
}

// ---- decoding -------------------------------------------------------------
// Go's decoder treats null like an absent key and matches keys ignoring case;
// a value of the wrong type fails the whole result with code 6.

[[noreturn]] void bad_field(const std::string& path, std::string_view problem) {
  throw Error(kDecodingFailure, fmt::format("invalid {}: {}", path, problem));
}

const nlohmann::json* field(const nlohmann::json& object, std::string_view key) {
  const nlohmann::json* value = find_key(object, key);
  return value && !value->is_null() ? value : nullptr;
}

std::string member_path(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : fmt::format("{}.{}", path, key);
}

std::string element_path(const std::string& path, size_t index) { return fmt::format("{}[{}]", path, index); }

const nlohmann::json& require_object(const nlohmann::json& value, const std::string& path) {
  if (!value.is_object()) bad_field(path, "expected a JSON object");
  return value;
}

std::string read_string(const nlohmann::json& object, std::string_view key, const std::string& path) {
  const nlohmann::json* value = field(object, key);
  if (!value) return {};
  if (!value->is_string()) bad_field(member_path(path, key), "expected a string");
  return value->get<std::string>();
}

std::vector<std::string> read_strings(const nlohmann::json& object, std::string_view key, const std::string& path) {
  std::vector<std::string> out;
  const nlohmann::json* value = field(object, key);
  if (!value) return out;
  std::string here = member_path(path, key);
  if (!value->is_array()) bad_field(here, "expected an array of strings");
  for (size_t i = 0; i < value->size(); ++i) {
    const auto& item = (*value)[i];
    if (!item.is_string()) bad_field(element_path(here, i), "expected a string");
    out.push_back(item.get<std::string>());
  }
  return out;
}

std::optional<int> read_int(const nlohmann::json& object, std::string_view key, const std::string& path) {
  const nlohmann::json* value = field(object, key);
  if (!value) return std::nullopt;
  bool fits = value->is_number_integer() &&
              (value->is_number_unsigned() ? value->get<uint64_t>() <= uint64_t{std::numeric_limits<int>::max()}
                                           : value->get<int64_t>() >= std::numeric_limits<int>::min() &&
                                                 value->get<int64_t>() <= std::numeric_limits<int>::max());
  if (!fits) bad_field(member_path(path, key), fmt::format("{} is not an integer", value->dump()));
  return value->get<int>();
}

// Go's int fields with omitempty: 0 and absent are the same thing.
std::optional<int> read_nonzero_int(const nlohmann::json& object, std::string_view key, const std::string& path) {
  std::optional<int> value = read_int(object, key, path);
  return value == 0 ? std::nullopt : value;
}

// Go's net.IP accepts "" as "no address".
std::optional<IpAddress> read_ip(const nlohmann::json& object, std::string_view key, const std::string& path) {
  std::string text = read_string(object, key, path);
  if (text.empty()) return std::nullopt;
  auto ip = IpAddress::parse(text);
  if (!ip) bad_field(member_path(path, key), fmt::format("\"{}\" is not an IP address", text));
  return ip;
}

IpPrefix read_prefix(const nlohmann::json& object, std::string_view key, const std::string& path) {
  const nlohmann::json* value = field(object, key);
  if (!value) bad_field(member_path(path, key), "missing");
  std::string text = read_string(object, key, path);
  auto prefix = IpPrefix::parse(text);
  if (!prefix) bad_field(member_path(path, key), fmt::format("\"{}\" is not an address with a prefix length", text));
  return *prefix;
}

// Calls `each(element, path)` for every element of an optional array.
template <typename Each>
void for_each_element(const nlohmann::json& object, std::string_view key, const std::string& path, Each each) {
  const nlohmann::json* value = field(object, key);
  if (!value) return;
  std::string here = member_path(path, key);
  if (!value->is_array()) bad_field(here, "expected an array");
  for (size_t i = 0; i < value->size(); ++i) {
    std::string item_path = element_path(here, i);
    each(require_object((*value)[i], item_path), item_path);
  }
}

Dns read_dns(const nlohmann::json& object, const std::string& path) {
  require_object(object, path);
  Dns dns;
  dns.nameservers = read_strings(object, "nameservers", path);
  dns.domain = read_string(object, "domain", path);
  dns.search = read_strings(object, "search", path);
  dns.options = read_strings(object, "options", path);
  return dns;
}

// Every version decodes the full route: Go's types.Route is shared.
Route read_route(const nlohmann::json& object, const std::string& path) {
  Route route;
  route.dst = read_prefix(object, "dst", path);
  route.gw = read_ip(object, "gw", path);
  route.mtu = read_nonzero_int(object, "mtu", path);
  route.advmss = read_nonzero_int(object, "advmss", path);
  route.priority = read_nonzero_int(object, "priority", path);
  route.table = read_int(object, "table", path);
  route.scope = read_int(object, "scope", path);
  return route;
}

void read_legacy_ip(const nlohmann::json& top, std::string_view key, Result& result) {
  const nlohmann::json* value = field(top, key);
  if (!value) return;
  std::string path(key);
  require_object(*value, path);
  result.ips.push_back({read_prefix(*value, "ip", path), read_ip(*value, "gateway", path), std::nullopt});
  for_each_element(*value, "routes", path,
                   [&](const nlohmann::json& r, const std::string& p) { result.routes.push_back(read_route(r, p)); });
}

void read_legacy(const nlohmann::json& top, Result& result) {
  read_legacy_ip(top, "ip4", result);
  read_legacy_ip(top, "ip6", result);
}

// 0.3+ results. "ips[].version" (0.x only) is redundant with the address
// family, which is what the model keeps.
void read_current(const nlohmann::json& top, Family family, Result& result) {
  for_each_element(top, "interfaces", "", [&](const nlohmann::json& i, const std::string& p) {
    Interface intf;
    intf.name = read_string(i, "name", p);
    intf.mac = read_string(i, "mac", p);
    intf.sandbox = read_string(i, "sandbox", p);
    if (family == Family::V1) {
      intf.mtu = read_nonzero_int(i, "mtu", p);
      intf.socket_path = read_string(i, "socketPath", p);
      intf.pci_id = read_string(i, "pciID", p);
    }
    result.interfaces.push_back(std::move(intf));
  });
  for_each_element(top, "ips", "", [&](const nlohmann::json& ip, const std::string& p) {
    result.ips.push_back({read_prefix(ip, "address", p), read_ip(ip, "gateway", p), read_int(ip, "interface", p)});
  });
  for_each_element(top, "routes", "",
                   [&](const nlohmann::json& r, const std::string& p) { result.routes.push_back(read_route(r, p)); });
}

// ---- encoding -------------------------------------------------------------

void put_if(ojson& object, std::string_view key, const std::string& value) {
  if (!value.empty()) object[std::string(key)] = value;
}

void put_if(ojson& object, std::string_view key, const std::optional<IpAddress>& value) {
  if (value) object[std::string(key)] = value->str();
}

void put_if(ojson& object, std::string_view key, const std::optional<int>& value) {
  if (value) object[std::string(key)] = *value;
}

void put_if_nonzero(ojson& object, std::string_view key, const std::optional<int>& value) {
  if (value && *value != 0) object[std::string(key)] = *value;
}

ojson route_json(const Route& route, bool with_extras) {
  ojson out = ojson::object();
  out["dst"] = route.dst.str();
  put_if(out, "gw", route.gw);
  if (with_extras) {
    put_if_nonzero(out, "mtu", route.mtu);
    put_if_nonzero(out, "advmss", route.advmss);
    put_if_nonzero(out, "priority", route.priority);
    put_if(out, "table", route.table);
    put_if(out, "scope", route.scope);
  }
  return out;
}

ojson interface_json(const Interface& intf, Family family) {
  ojson out = ojson::object();
  out["name"] = intf.name;  // Go has no omitempty here
  put_if(out, "mac", intf.mac);
  if (family == Family::V1) put_if_nonzero(out, "mtu", intf.mtu);
  put_if(out, "sandbox", intf.sandbox);
  if (family == Family::V1) {
    put_if(out, "socketPath", intf.socket_path);
    put_if(out, "pciID", intf.pci_id);
  }
  return out;
}

ojson ip_json(const IpConfig& ip, Family family) {
  ojson out = ojson::object();
  if (family == Family::V04) out["version"] = ip.address.address().is_v4() ? "4" : "6";
  put_if(out, "interface", ip.interface);
  out["address"] = ip.address.str();
  put_if(out, "gateway", ip.gateway);
  return out;
}

// What Go's json.Marshal of a map[string]interface{} does: keys sorted
// bytewise at every level.
ojson with_sorted_keys(const ojson& value) {
  if (value.is_array()) {
    ojson out = ojson::array();
    for (const auto& item : value) out.push_back(with_sorted_keys(item));
    return out;
  }
  if (!value.is_object()) return value;
  std::vector<std::string> keys;
  for (auto it = value.begin(); it != value.end(); ++it) keys.push_back(it.key());
  std::sort(keys.begin(), keys.end());
  ojson out = ojson::object();
  for (const auto& key : keys) out[key] = with_sorted_keys(value.at(key));
  return out;
}

ojson encode_legacy(const Result& result, std::string_view version) {
  auto first_of = [&](bool v4) -> const IpConfig* {
    auto it = std::find_if(result.ips.begin(), result.ips.end(),
                           [&](const IpConfig& ip) { return ip.address.address().is_v4() == v4; });
    return it == result.ips.end() ? nullptr : &*it;
  };
  const IpConfig* ip4 = first_of(true);
  const IpConfig* ip6 = first_of(false);
  if (!ip4 && !ip6) {
    throw Error(kIncompatibleVersion, "cannot convert: no valid IP addresses",
                fmt::format("a {} result needs an IP address and this one has none", version));
  }

  auto ip_object = [&](const IpConfig& ip) {
    ojson out = ojson::object();
    out["ip"] = ip.address.str();
    put_if(out, "gateway", ip.gateway);
    ojson routes = ojson::array();
    for (const auto& route : result.routes) {
      if (route.dst.address().is_v4() == ip.address.address().is_v4()) routes.push_back(route_json(route, false));
    }
    if (!routes.empty()) out["routes"] = std::move(routes);
    return out;
  };

  ojson out = ojson::object();
  out["cniVersion"] = std::string(version);
  if (ip4) out["ip4"] = ip_object(*ip4);
  if (ip6) out["ip6"] = ip_object(*ip6);
  out["dns"] = encode_dns(result.dns);
  return out;
}

ojson encode_current(const Result& result, std::string_view version, Family family) {
  ojson out = ojson::object();
  out["cniVersion"] = std::string(version);
  if (!result.interfaces.empty()) {
    ojson& list = out["interfaces"] = ojson::array();
    for (const auto& intf : result.interfaces) list.push_back(interface_json(intf, family));
  }
  if (!result.ips.empty()) {
    ojson& list = out["ips"] = ojson::array();
    for (const auto& ip : result.ips) list.push_back(ip_json(ip, family));
  }
  if (!result.routes.empty()) {
    ojson& list = out["routes"] = ojson::array();
    for (const auto& route : result.routes) list.push_back(route_json(route, true));
  }
  if (family == Family::V04 || !result.dns.empty()) out["dns"] = encode_dns(result.dns);
  return family == Family::V1 ? with_sorted_keys(out) : out;
}

std::string declared_version(const nlohmann::json& j) {
  require_object(j, "result");
  return read_string(j, "cniVersion", "");
}

}  // namespace

Dns decode_dns(const nlohmann::json& j) { return read_dns(j, "dns"); }

ojson encode_dns(const Dns& dns) {
  ojson out = ojson::object();
  if (!dns.nameservers.empty()) out["nameservers"] = dns.nameservers;
  put_if(out, "domain", dns.domain);
  if (!dns.search.empty()) out["search"] = dns.search;
  if (!dns.options.empty()) out["options"] = dns.options;
  return out;
}

Result Result::decode(const nlohmann::json& j, std::string_view version) {
  const FamilyVersions& expected = family_of(version);
  std::string declared = declared_version(j);
  if (declared.empty()) declared = version;
  if (!lists(expected, declared)) {
    throw Error(kDecodingFailure, fmt::format("result type supports {} but unmarshalled CNIVersion is \"{}\"",
                                              expected.go_supported_list, declared));
  }

  Result result;
  if (const nlohmann::json* dns = field(j, "dns")) result.dns = read_dns(*dns, "dns");
  if (expected.family == Family::Legacy) {
    read_legacy(j, result);
  } else {
    read_current(j, expected.family, result);
  }
  return result;
}

Result Result::decode_in_own_version(const nlohmann::json& j, std::string_view fallback_version) {
  std::string declared = declared_version(j);
  return decode(j, declared.empty() ? fallback_version : std::string_view(declared));
}

ojson Result::encode(std::string_view version) const {
  Family family = family_of(version).family;
  return family == Family::Legacy ? encode_legacy(*this, version) : encode_current(*this, version, family);
}

}  // namespace wincni::cni
