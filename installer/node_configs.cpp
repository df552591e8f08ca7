#include "node_configs.hpp"

#include <nlohmann/json.hpp>

#include "wincni/cni/config.hpp"
#include "wincni/flannel/flannel_config.hpp"

namespace wincni::installer {

namespace {

using Json = nlohmann::ordered_json;

std::string joined(const std::vector<cni::IpPrefix>& networks) {
  std::string text;
  for (const cni::IpPrefix& network : networks) text += (text.empty() ? "" : ",") + network.str();
  return text;
}

Json delegate(const NetworkSettings& network) {
  Json dns = Json::object();
  Json servers = Json::array();
  for (const cni::IpAddress& server : network.dns_servers) servers.push_back(server.str());
  dns["nameservers"] = servers;
  dns["search"] = Json::array({"svc." + network.dns_domain});
  Json out = Json::object();
  out["type"] = network.backend == flannel::Backend::HostGw ? "win-bridge" : "win-overlay";
  out["dns"] = dns;
  // Pods reach themselves through a service they back (hairpin), as in
  // conf-examples/flannel-host-gw.conflist; the installer writes what the
  // examples show, and a test holds the two together.
  if (network.backend == flannel::Backend::HostGw) out["loopbackDSR"] = true;
  return out;
}

}  // namespace

std::string flannel_conflist(const NetworkSettings& network) {
  Json plugin = Json::object();
  plugin["type"] = "flannel";
  plugin["capabilities"] = {{"portMappings", true}, {"dns", true}};
  plugin["serviceCIDR"] = joined(network.service_networks);
  if (network.node_ip) plugin["nodeIP"] = network.node_ip->str();
  plugin["delegate"] = delegate(network);

  Json list = Json::object();
  list["cniVersion"] = "1.0.0";
  list["cniVersions"] = {"1.0.0", "1.1.0"};
  list["name"] = network.network_name;
  list["plugins"] = Json::array({plugin});

  // What flannel would make of it, as a runtime hands it over.
  Json as_passed = plugin;
  as_passed["cniVersion"] = list["cniVersion"];
  as_passed["name"] = list["name"];
  flannel::read_flannel_config(cni::NetConf::parse(as_passed.dump()));
  return list.dump(2) + "\n";
}

std::string flanneld_net_conf(const NetworkSettings& network) {
  Json conf = Json::object();
  for (const cni::IpPrefix& pods : network.cluster_networks) {
    if (pods.address().is_v4()) {
      conf["Network"] = pods.str();
    } else {
      conf["EnableIPv6"] = true;
      conf["IPv6Network"] = pods.str();
    }
  }
  if (network.backend == flannel::Backend::HostGw) {
    conf["Backend"] = {{"Type", "host-gw"}};
  } else {
    // 4789 is the only VXLAN port HNS's Overlay network uses.
    conf["Backend"] = {{"Type", "vxlan"}, {"VNI", network.vni}, {"Port", 4789}};
  }
  return conf.dump(2) + "\n";
}

}  // namespace wincni::installer
