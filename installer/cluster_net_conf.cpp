#include "cluster_net_conf.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "install_options.hpp"
#include "wincni/os/private_files.hpp"

namespace wincni::installer {

namespace {

using NetConfJson = nlohmann::json;

// flannel's vxlan defaults when the file gives none (its Linux backend).
constexpr std::uint32_t kFlannelDefaultVni = 1;
constexpr std::uint32_t kFlannelDefaultLinuxPort = 8472;
constexpr std::uint32_t kHnsVxlanPort = 4789;

cni::IpPrefix network(const NetConfJson& conf, const char* key, const std::string& path) {
  const auto field = conf.find(key);
  const auto prefix =
      field != conf.end() && field->is_string() ? cni::IpPrefix::parse(field->get<std::string>()) : std::nullopt;
  if (!prefix || !prefix->is_network()) {
    throw UsageError(
        fmt::format("{}: \"{}\" must be the cluster's pod network as a CIDR (\"10.244.0.0/16\")", path, key));
  }
  return *prefix;
}

std::uint32_t number(const NetConfJson& backend, const char* key, std::uint32_t fallback, const std::string& path) {
  const auto field = backend.find(key);
  if (field == backend.end()) return fallback;
  // Read whole before it is narrowed: 4294971392 must not pass as 4096.
  if (!field->is_number_unsigned() || field->get<std::uint64_t>() > 0xFFFFFFFFu) {
    throw UsageError(fmt::format("{}: Backend.{} must be a number below 2^32", path, key));
  }
  return static_cast<std::uint32_t>(field->get<std::uint64_t>());
}

}  // namespace

ClusterNetConf read_cluster_net_conf(const std::string& path) {
  ClusterNetConf conf;
  const auto text = os::private_files::read_file(path, 1 << 20);
  if (!text) throw UsageError(fmt::format("{}: no such file (kube-flannel-cfg's net-conf.json)", path));
  conf.text = *text;
  const NetConfJson json = NetConfJson::parse(conf.text, nullptr, false);
  if (!json.is_object()) throw UsageError(fmt::format("{}: not a JSON object", path));
  conf.cluster_networks.push_back(network(json, "Network", path));
  if (const auto ipv6 = json.find("EnableIPv6"); ipv6 != json.end() && ipv6->is_boolean() && ipv6->get<bool>()) {
    conf.cluster_networks.push_back(network(json, "IPv6Network", path));
  }
  const auto backend = json.find("Backend");
  if (backend == json.end() || !backend->is_object()) {
    throw UsageError(fmt::format("{}: no \"Backend\" object: flanneld needs one", path));
  }
  const auto type = backend->find("Type");
  const std::string type_name = type != backend->end() && type->is_string() ? type->get<std::string>() : "";
  if (type_name == "host-gw") {
    conf.backend = flannel::Backend::HostGw;
    return conf;
  }
  if (type_name != "vxlan") {
    throw UsageError(
        fmt::format("{}: Backend.Type \"{}\": flanneld on Windows runs vxlan or host-gw", path, type_name));
  }
  conf.vni = number(*backend, "VNI", kFlannelDefaultVni, path);
  if (conf.vni < kDefaultVni || conf.vni > 0xFFFFFF) {
    throw UsageError(fmt::format(
        "{}: Backend.VNI is {}{}; flanneld on Windows needs 4096 or more: set \"VNI\": 4096 and \"Port\": 4789 in "
        "kube-flannel-cfg, which the Linux nodes read too",
        path, conf.vni, backend->contains("VNI") ? "" : " (flannel's default)"));
  }
  if (const std::uint32_t port = number(*backend, "Port", kFlannelDefaultLinuxPort, path); port != kHnsVxlanPort) {
    throw UsageError(fmt::format(
        "{}: Backend.Port is {}{}; HNS's Overlay network uses 4789 only: set \"Port\": 4789 in kube-flannel-cfg, "
        "so that the Linux nodes use it too",
        path, port, backend->contains("Port") ? "" : " (flannel's default on Linux)"));
  }
  return conf;
}

}  // namespace wincni::installer
