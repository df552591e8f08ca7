#include "wincni/flannel/flannel_config.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "wincni/cni/config_fields.hpp"
#include "wincni/cni/unknown_keys.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/cni/json_keys.hpp"
#include "wincni/os/private_files.hpp"

namespace wincni::flannel {
namespace {

using Json = nlohmann::json;

// The reference checks the delegate's keys by exact name, so "Type" or
// "IPAM" slipped through and the delegate got both spellings; here any case
// counts, and a type key in another case is renamed "type".
Json checked_delegate(const Json* given) {
  if (given == nullptr || given->is_null()) return Json::object();
  Json delegate = cni::kConfigFields.expect_object(*given, "delegate");
  if (cni::find_key(delegate, "name") != nullptr) {
    throw cni::Error(cni::kInvalidNetworkConfig,
                     "'delegate' dictionary must not have 'name' field, it'll be set by flannel");
  }
  if (cni::find_key(delegate, "ipam") != nullptr) {
    throw cni::Error(cni::kInvalidNetworkConfig,
                     "'delegate' dictionary must not have 'ipam' field, it'll be set by flannel");
  }
  for (auto it = delegate.begin(); it != delegate.end(); ++it) {
    if (!cni::equals_ignore_case(it.key(), "type")) continue;
    if (!it->is_string()) {
      throw cni::Error(cni::kInvalidNetworkConfig,
                       "'delegate' dictionary, if present, must have (string) 'type' field");
    }
    if (it.key() != "type") {
      Json type = *it;
      delegate.erase(it);
      delegate["type"] = std::move(type);
    }
    break;
  }
  return delegate;
}

// One prefix or several: a JSON list, or kube-apiserver's comma-separated
// --service-cluster-ip-range ("10.96.0.0/12,fd00:10:96::/112").
std::vector<cni::IpPrefix> service_networks(const Json& config) {
  const Json* value = cni::find_key(config, "serviceCIDR");
  if (value == nullptr || value->is_null()) return {};
  std::vector<std::string> texts;
  if (value->is_array()) {
    for (std::size_t i = 0; i < value->size(); ++i) {
      texts.push_back(cni::kConfigFields.expect_string((*value)[i], cni::FieldReader::index_path("serviceCIDR", i)));
    }
  } else {
    const std::string& list = cni::kConfigFields.expect_string(*value, "serviceCIDR");
    std::size_t start = 0;
    while (start <= list.size()) {
      const auto comma = list.find(',', start);
      texts.push_back(list.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  std::vector<cni::IpPrefix> networks;
  for (const std::string& text : texts) {
    auto prefix = cni::IpPrefix::parse(text);
    if (!prefix) cni::kConfigFields.fail("serviceCIDR", fmt::format("\"{}\" is not a CIDR", text));
    for (const cni::IpPrefix& seen : networks) {
      if (seen.family() == prefix->family())
        cni::kConfigFields.fail("serviceCIDR", "one service network per IP family");
    }
    networks.push_back(*prefix);  // as written: ADD refuses host bits (policy_sources)
  }
  return networks;
}

// On Windows '/' is a separator too, but a path that starts with one is not
// always taken as root-relative (Wine takes "/run/..." as a Unix path), so
// the reference's defaults and the user's paths are made "\run\...", which
// every Windows API resolves on the current drive.
std::string native_separators(std::string path) {
#ifdef _WIN32
  std::replace(path.begin(), path.end(), '/', '\\');
#endif
  return path;
}

}  // namespace

// The keys read here, beside the spec's.
constexpr std::array<std::string_view, 6> kFlannelKeys{"subnetFile", "dataDir",     "subnetFileWaitSeconds",
                                                       "delegate",   "serviceCIDR", "nodeIP"};

FlannelConfig read_flannel_config(const cni::NetConf& conf) {
  const Json& raw = conf.raw();
  FlannelConfig config;
  config.name = conf.name();
  if (auto version = cni::kConfigFields.read_string(raw, "cniVersion", "")) config.cni_version = *version;
  if (auto file = cni::kConfigFields.read_string(raw, "subnetFile", ""); file && !file->empty())
    config.subnet_file = *file;
  if (auto dir = cni::kConfigFields.read_string(raw, "dataDir", ""); dir && !dir->empty()) config.data_dir = *dir;
  for (const std::string* path : {&config.subnet_file, &config.data_dir}) {
    if (path->find('\0') != std::string::npos) {
      throw cni::Error(cni::kInvalidNetworkConfig, fmt::format("{}: contains a NUL character",
                                                               path == &config.subnet_file ? "subnetFile" : "dataDir"));
    }
  }
  config.subnet_file = native_separators(std::move(config.subnet_file));
  config.data_dir = native_separators(std::move(config.data_dir));
  // A relative dataDir would put pods' configs in whatever folder the
  // runtime runs in (System32 for a Windows service); a relative subnetFile
  // would be read from there.
  if (!os::private_files::starts_at_root(config.data_dir)) {
    throw cni::Error(cni::kInvalidNetworkConfig,
                     fmt::format("dataDir \"{}\" is relative: give a path from the root, such as the default {}",
                                 config.data_dir, native_separators(kDefaultDataDir)));
  }
  if (!os::private_files::starts_at_root(config.subnet_file)) {
    throw cni::Error(cni::kInvalidNetworkConfig,
                     fmt::format("subnetFile \"{}\" is relative: give a path from the root, such as the default {}",
                                 config.subnet_file, native_separators(kDefaultSubnetFile)));
  }
  if (auto seconds = cni::kConfigFields.read_integer(raw, "subnetFileWaitSeconds", "", 0, 600)) {
    config.subnet_wait = std::chrono::seconds(*seconds);
  }
  config.delegate = checked_delegate(cni::find_key(raw, "delegate"));
  if (const Json* ipam = cni::kConfigFields.read_object(raw, "ipam", "")) config.ipam = *ipam;
  if (const Json* runtime = cni::kConfigFields.read_object(raw, "runtimeConfig", "")) config.runtime_config = *runtime;
  if (const Json* capabilities = cni::kConfigFields.read_object(raw, "capabilities", ""))
    config.capabilities = *capabilities;
  config.service_networks = service_networks(raw);
  config.node_ip = cni::kConfigFields.read_address(raw, "nodeIP", "");
  config.warnings = cni::unknown_key_warnings(raw, cni::kCommonConfigKeys, kFlannelKeys);
  return config;
}

FlannelConfig read_flannel_config(const cni::CommandContext& ctx) {
  FlannelConfig config = read_flannel_config(ctx.config);
  for (const std::string& warning : config.warnings) ctx.log().warn("{}", warning);
  return config;
}

}  // namespace wincni::flannel
