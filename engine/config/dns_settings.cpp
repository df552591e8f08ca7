#include "config/dns_settings.hpp"

#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "config/pod_dns_search.hpp"
#include "wincni/cni/config_fields.hpp"

namespace wincni::engine {

namespace {

std::vector<std::string> read_strings(const nlohmann::json& object, std::string_view key, std::string_view path) {
  std::vector<std::string> values;
  const nlohmann::json* list = cni::kConfigFields.read_array(object, key, path);
  if (list == nullptr) return values;
  for (size_t i = 0; i < list->size(); ++i) {
    if (!(*list)[i].is_string()) {
      const std::string element = cni::FieldReader::index_path(cni::FieldReader::join_path(path, key), i);
      cni::kConfigFields.fail(element, "must be a string");
    }
    values.push_back((*list)[i].get<std::string>());
  }
  return values;
}

}  // namespace

cni::Dns effective_dns(const nlohmann::json& config, std::string_view pod_namespace) {
  cni::Dns dns;
  if (const nlohmann::json* configured = cni::kConfigFields.read_object(config, "dns", ""))
    dns = cni::decode_dns(*configured);
  const bool namespaced = cni::kConfigFields.read_bool(config, kPodNamespaceSearchKey, "").value_or(true);

  bool runtime_search = false;
  const nlohmann::json* runtime_config = cni::kConfigFields.read_object(config, "runtimeConfig", "");
  const nlohmann::json* runtime =
      runtime_config == nullptr ? nullptr : cni::kConfigFields.read_object(*runtime_config, "dns", "runtimeConfig");
  if (runtime != nullptr) {
    const std::string path = "runtimeConfig.dns";
    if (auto servers = read_strings(*runtime, "servers", path); !servers.empty()) dns.nameservers = std::move(servers);
    if (auto searches = read_strings(*runtime, "searches", path); !searches.empty()) {
      dns.search = std::move(searches);
      runtime_search = true;
    }
    if (auto options = read_strings(*runtime, "options", path); !options.empty()) dns.options = std::move(options);
  }
  // The runtime's list is the pod's dnsConfig as the kubelet made it: the
  // namespace is in it already, or the pod's spec left it out on purpose.
  if (namespaced && !runtime_search && !pod_namespace.empty()) {
    dns.search = with_pod_namespace(dns.search, pod_namespace, dns.domain);
  }
  return dns;
}

}  // namespace wincni::engine
