#include "ipam_config.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "wincni/cni/cni_args.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/cni/json_keys.hpp"
#include "wincni/cni/version.hpp"

namespace wincni::hostlocal {

namespace {

using nlohmann::json;

cni::Error invalid(std::string msg) { return cni::Error(cni::kInvalidNetworkConfig, std::move(msg)); }

cni::Error wrong_type(std::string_view path, std::string_view expected) {
  return cni::Error(cni::kDecodingFailure, fmt::format("{}: expected {}", path, expected));
}

// A key whose value is null counts as absent, as for Go's decoder.
const json* member(const json& object, std::string_view key) {
  const json* value = cni::find_key(object, key);
  return value != nullptr && !value->is_null() ? value : nullptr;
}

std::string child_path(std::string_view parent, std::string_view key) { return fmt::format("{}.{}", parent, key); }
std::string index_path(std::string_view parent, size_t index) { return fmt::format("{}[{}]", parent, index); }

std::optional<std::string> string_member(const json& object, std::string_view key, std::string_view path) {
  const json* value = member(object, key);
  if (value == nullptr) return std::nullopt;
  if (!value->is_string()) throw wrong_type(child_path(path, key), "a string");
  return value->get<std::string>();
}

const json* array_member(const json& object, std::string_view key, std::string_view path) {
  const json* value = member(object, key);
  if (value != nullptr && !value->is_array()) throw wrong_type(child_path(path, key), "an array");
  return value;
}

const json* object_member(const json& object, std::string_view key, std::string_view path) {
  const json* value = member(object, key);
  if (value != nullptr && !value->is_object()) throw wrong_type(child_path(path, key), "an object");
  return value;
}

// A file-system path: the OS would cut it at a NUL, and host-local would
// create and lock a directory other than the one the config names.
std::optional<std::string> path_member(const json& object, std::string_view key, std::string_view path) {
  auto text = string_member(object, key, path);
  if (text && text->find('\0') != std::string::npos) {
    throw invalid(fmt::format("{}: a path cannot contain a NUL character", child_path(path, key)));
  }
  return text;
}

// net.IP fields: "" leaves the field unset.
std::optional<cni::IpAddress> ip_member(const json& object, std::string_view key, std::string_view path) {
  const auto text = string_member(object, key, path);
  if (!text || text->empty()) return std::nullopt;
  const auto ip = cni::IpAddress::parse(*text);
  if (!ip) throw invalid(fmt::format("invalid IP address: {}", *text));
  return ip;
}

std::optional<cni::IpPrefix> cidr_member(const json& object, std::string_view key, std::string_view path) {
  const auto text = string_member(object, key, path);
  if (!text) return std::nullopt;
  const auto prefix = cni::IpPrefix::parse(*text);
  if (!prefix) throw invalid(fmt::format("invalid CIDR address: {}", *text));
  return prefix;
}

RangeSpec parse_range(const json& object, std::string_view path) {
  if (!object.is_object()) throw wrong_type(path, "an object");
  return RangeSpec{cidr_member(object, "subnet", path), ip_member(object, "rangeStart", path),
                   ip_member(object, "rangeEnd", path), ip_member(object, "gateway", path)};
}

std::vector<RangeSpec> parse_range_set(const json& array, std::string_view path) {
  if (!array.is_array()) throw wrong_type(path, "an array of ranges");
  std::vector<RangeSpec> specs;
  for (size_t i = 0; i < array.size(); ++i) specs.push_back(parse_range(array[i], index_path(path, i)));
  return specs;
}

void append_range_sets(const json* array, std::string_view path, std::vector<std::vector<RangeSpec>>& out) {
  if (array == nullptr) return;
  for (size_t i = 0; i < array->size(); ++i) out.push_back(parse_range_set((*array)[i], index_path(path, i)));
}

// "ip" or "ip/prefix" (the prefix is ignored), as the reference's ip.IP.
cni::IpAddress parse_requested_ip(std::string_view text, int error_code) {
  if (text.find('/') != std::string_view::npos) {
    if (auto prefix = cni::IpPrefix::parse(text)) return canonical_ip(prefix->address());
  } else if (auto ip = cni::IpAddress::parse(text)) {
    return canonical_ip(*ip);
  }
  throw cni::Error(error_code, fmt::format("invalid IP address {}", text));
}

void append_requested_ips(const json* array, std::string_view path, std::vector<cni::IpAddress>& out) {
  if (array == nullptr) return;
  for (size_t i = 0; i < array->size(); ++i) {
    const json& item = (*array)[i];
    if (!item.is_string()) throw wrong_type(index_path(path, i), "a string");
    out.push_back(parse_requested_ip(item.get<std::string>(), cni::kInvalidNetworkConfig));
  }
}

// Routes have the shape of a result's; the result decoder reads them (and
// names the offending key when one is malformed).
std::vector<cni::Route> parse_routes(const json& routes) {
  const json as_result = {{"cniVersion", cni::kCurrentVersion}, {"routes", routes}};
  try {
    return cni::Result::decode(as_result, cni::kCurrentVersion).routes;
  } catch (const cni::Error& e) {
    throw cni::Error(e.code(), fmt::format("ipam: {}", e.msg()), e.details());
  }
}

bool allows_one_address_per_family_only(std::string_view version) {
  return version == "0.1.0" || version == "0.2.0";
}

std::vector<RangeSet> canonicalize_sets(const std::vector<std::vector<RangeSpec>>& specs, std::string_view version) {
  if (specs.empty()) throw invalid("no IP ranges specified");
  std::vector<RangeSet> sets;
  int v4 = 0, v6 = 0;
  for (size_t i = 0; i < specs.size(); ++i) {
    try {
      sets.push_back(RangeSet::canonicalize(specs[i]));
    } catch (const cni::Error& e) {
      throw invalid(fmt::format("invalid range set {}: {}", i, e.msg()));
    }
    ++(sets.back().family() == cni::IpFamily::V4 ? v4 : v6);
  }
  if ((v4 > 1 || v6 > 1) && allows_one_address_per_family_only(version)) {
    throw invalid(fmt::format("CNI version {} does not support more than 1 address per family", version));
  }
  for (size_t i = 0; i < sets.size(); ++i) {
    for (size_t j = i + 1; j < sets.size(); ++j) {
      if (sets[i].overlaps(sets[j])) throw invalid(fmt::format("range set {} overlaps with {}", i, j));
    }
  }
  return sets;
}

const json& ipam_section(const cni::NetConf& conf) {
  const json& ipam = conf.ipam();
  if (ipam.is_null()) throw invalid("IPAM config missing 'ipam' key");
  if (!ipam.is_object()) throw wrong_type("ipam", "an object");
  return ipam;
}

}  // namespace

StoreLocation StoreLocation::of(const cni::NetConf& conf) {
  return StoreLocation{path_member(ipam_section(conf), "dataDir", "ipam").value_or(""), conf.name()};
}

IpamConfig IpamConfig::load(const cni::NetConf& conf, std::string_view cni_args) {
  const json& ipam = ipam_section(conf);
  const json& runtime = conf.runtime_config();
  const json empty = json::object();
  const json& runtime_config = runtime.is_object() ? runtime : empty;

  IpamConfig config;
  config.location = StoreLocation::of(conf);
  config.cni_version = conf.cni_version();
  config.resolv_conf = path_member(ipam, "resolvConf", "ipam").value_or("");

  std::vector<cni::IpAddress> requested;
  if (const auto ip = cni::CniArgs::parse(cni_args).get(cni::cni_arg_keys::kIp); ip && !ip->empty()) {
    requested.push_back(parse_requested_ip(*ip, cni::kInvalidEnvironment));
  }
  if (conf.args().is_object()) {
    if (const json* cni_section = object_member(conf.args(), "cni", "args")) {
      append_requested_ips(array_member(*cni_section, "ips", "args.cni"), "args.cni.ips", requested);
    }
  }
  append_requested_ips(array_member(runtime_config, "ips", "runtimeConfig"), "runtimeConfig.ips", requested);
  for (const auto& ip : requested) {
    if (std::find(config.requested_ips.begin(), config.requested_ips.end(), ip) == config.requested_ips.end()) {
      config.requested_ips.push_back(ip);
    }
  }

  std::vector<std::vector<RangeSpec>> specs;
  append_range_sets(array_member(runtime_config, "ipRanges", "runtimeConfig"), "runtimeConfig.ipRanges", specs);
  // The old single range counts only when it names a subnet.
  const RangeSpec single = parse_range(ipam, "ipam");
  if (single.subnet) specs.push_back({single});
  append_range_sets(array_member(ipam, "ranges", "ipam"), "ipam.ranges", specs);
  config.range_sets = canonicalize_sets(specs, config.cni_version);

  if (const json* routes = array_member(ipam, "routes", "ipam")) config.routes = parse_routes(*routes);
  return config;
}

}  // namespace wincni::hostlocal
