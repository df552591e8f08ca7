#include "ipam_config.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "invalid_config.hpp"
#include "wincni/cni/cni_args.hpp"
#include "wincni/cni/config_fields.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/os/private_files.hpp"
#include "wincni/cni/version.hpp"

namespace wincni::hostlocal {

namespace {

using cni::FieldReader;
using nlohmann::json;

// A field of the wrong JSON type is a decoding failure (6) worded
// "ipam.dataDir: expected a string", as host-local has always said; its tests
// pin both. A field of the right type whose value is wrong is 7, in the
// reference's words where the reference has any (invalid_config()).
constexpr FieldReader fields(cni::kDecodingFailure, FieldReader::Mismatch::kExpected);

// A file-system path: the OS would cut it at a NUL, and host-local would
// create and lock a directory other than the one the config names.
std::optional<std::string> path_member(const json& object, std::string_view key, std::string_view path) {
  auto text = fields.read_string(object, key, path);
  if (text && text->find('\0') != std::string::npos) {
    throw invalid_config(fmt::format("{}: a path cannot contain a NUL character", FieldReader::join_path(path, key)));
  }
  return text;
}

// net.IP fields: "" leaves the field unset. Not read_address: a malformed
// address is reported in the reference's words, which name no field.
std::optional<cni::IpAddress> ip_member(const json& object, std::string_view key, std::string_view path) {
  const auto text = fields.read_string(object, key, path);
  if (!text || text->empty()) return std::nullopt;
  const auto ip = cni::IpAddress::parse(*text);
  if (!ip) throw invalid_config(fmt::format("invalid IP address: {}", *text));
  return ip;
}

// Not read_prefix: for the reference "" is a malformed subnet, not an absent
// one, and its message names no field.
std::optional<cni::IpPrefix> cidr_member(const json& object, std::string_view key, std::string_view path) {
  const auto text = fields.read_string(object, key, path);
  if (!text) return std::nullopt;
  const auto prefix = cni::IpPrefix::parse(*text);
  if (!prefix) throw invalid_config(fmt::format("invalid CIDR address: {}", *text));
  return prefix;
}

RangeSpec parse_range(const json& object, std::string_view path) {
  fields.expect_object(object, path);
  return RangeSpec{cidr_member(object, "subnet", path), ip_member(object, "rangeStart", path),
                   ip_member(object, "rangeEnd", path), ip_member(object, "gateway", path)};
}

std::vector<RangeSpec> parse_range_set(const json& array, std::string_view path) {
  fields.expect_array(array, path);
  std::vector<RangeSpec> specs;
  for (size_t i = 0; i < array.size(); ++i) specs.push_back(parse_range(array[i], FieldReader::index_path(path, i)));
  return specs;
}

void append_range_sets(const json* array, std::string_view path, std::vector<std::vector<RangeSpec>>& out) {
  if (array == nullptr) return;
  for (size_t i = 0; i < array->size(); ++i) {
    out.push_back(parse_range_set((*array)[i], FieldReader::index_path(path, i)));
  }
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
    const std::string& text = fields.expect_string((*array)[i], FieldReader::index_path(path, i));
    out.push_back(parse_requested_ip(text, cni::kInvalidNetworkConfig));
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

bool allows_one_address_per_family_only(std::string_view version) { return version == "0.1.0" || version == "0.2.0"; }

std::vector<RangeSet> canonicalize_sets(const std::vector<std::vector<RangeSpec>>& specs, std::string_view version) {
  if (specs.empty()) throw invalid_config("no IP ranges specified");
  std::vector<RangeSet> sets;
  int v4 = 0, v6 = 0;
  for (size_t i = 0; i < specs.size(); ++i) {
    try {
      sets.push_back(RangeSet::canonicalize(specs[i]));
    } catch (const cni::Error& e) {
      throw invalid_config(fmt::format("invalid range set {}: {}", i, e.msg()));
    }
    ++(sets.back().family() == cni::IpFamily::V4 ? v4 : v6);
  }
  if ((v4 > 1 || v6 > 1) && allows_one_address_per_family_only(version)) {
    throw invalid_config(fmt::format("CNI version {} does not support more than 1 address per family", version));
  }
  for (size_t i = 0; i < sets.size(); ++i) {
    for (size_t j = i + 1; j < sets.size(); ++j) {
      if (sets[i].overlaps(sets[j])) throw invalid_config(fmt::format("range set {} overlaps with {}", i, j));
    }
  }
  return sets;
}

const json& ipam_section(const cni::NetConf& conf) {
  const json* ipam = fields.read_object(conf.raw(), "ipam", "");
  if (ipam == nullptr) throw invalid_config("IPAM config missing 'ipam' key");
  return *ipam;
}

}  // namespace

StoreLocation StoreLocation::of(const cni::NetConf& conf) {
  std::string data_dir = path_member(ipam_section(conf), "dataDir", "ipam").value_or("");
  // A relative one would be resolved in whatever folder the runtime runs in
  // (System32 for a Windows service): a store nobody else finds.
  if (!data_dir.empty() && !os::private_files::starts_at_root(data_dir)) {
    throw cni::Error(cni::kInvalidNetworkConfig,
                     fmt::format("ipam.dataDir \"{}\" is relative: give a path from the root", data_dir));
  }
  return StoreLocation{std::move(data_dir), conf.name()};
}

IpamConfig IpamConfig::load(const cni::NetConf& conf, std::string_view cni_args) {
  const json& ipam = ipam_section(conf);
  const json& runtime_config = conf.runtime_config();  // null when absent: every key of it is then absent too

  IpamConfig config;
  config.location = StoreLocation::of(conf);
  config.cni_version = conf.cni_version();
  config.resolv_conf = path_member(ipam, "resolvConf", "ipam").value_or("");

  std::vector<cni::IpAddress> requested;
  if (const auto ip = cni::CniArgs::parse(cni_args).get(cni::cni_arg_keys::kIp); ip && !ip->empty()) {
    requested.push_back(parse_requested_ip(*ip, cni::kInvalidEnvironment));
  }
  if (const json* cni_section = fields.read_object(conf.args(), "cni", "args")) {
    append_requested_ips(fields.read_array(*cni_section, "ips", "args.cni"), "args.cni.ips", requested);
  }
  append_requested_ips(fields.read_array(runtime_config, "ips", "runtimeConfig"), "runtimeConfig.ips", requested);
  for (const auto& ip : requested) {
    if (std::find(config.requested_ips.begin(), config.requested_ips.end(), ip) == config.requested_ips.end()) {
      config.requested_ips.push_back(ip);
    }
  }

  std::vector<std::vector<RangeSpec>> specs;
  append_range_sets(fields.read_array(runtime_config, "ipRanges", "runtimeConfig"), "runtimeConfig.ipRanges", specs);
  // The old single range counts only when it names a subnet.
  const RangeSpec single = parse_range(ipam, "ipam");
  if (single.subnet) specs.push_back({single});
  append_range_sets(fields.read_array(ipam, "ranges", "ipam"), "ipam.ranges", specs);
  config.range_sets = canonicalize_sets(specs, config.cni_version);

  if (const json* routes = fields.read_array(ipam, "routes", "ipam")) config.routes = parse_routes(*routes);
  return config;
}

}  // namespace wincni::hostlocal
