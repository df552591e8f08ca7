#include "delegate_config.hpp"

#include <fmt/format.h>

#include "wincni/cni/config_fields.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/cni/json_keys.hpp"

namespace wincni::flannel {
namespace {

using cni::IpFamily;
using cni::IpPrefix;
using nlohmann::json;

constexpr const char* kDefaultDelegateType = "win-bridge";
// flanneld's host-gw backend gives the node's vNIC (<network>_ep) the
// subnet's second address; the first is the gateway.
constexpr std::uint64_t kFirstPodOffsetHostGw = 3;

// Drops every spelling of `key` but the exact one, so that setting it
// leaves one (Go's decoder would take whichever came first).
void erase_other_cases(json& object, std::string_view key) {
  for (auto it = object.begin(); it != object.end();) {
    if (it.key() != key && cni::equals_ignore_case(it.key(), key)) {
      it = object.erase(it);
    } else {
      ++it;
    }
  }
}

bool has_key(const json& object, std::string_view key) { return cni::find_key(object, key) != nullptr; }

json range_for(const IpPrefix& subnet, Backend backend) {
  json range = {{"subnet", subnet.str()}};
  if (backend == Backend::HostGw) range["rangeStart"] = subnet.first().plus(kFirstPodOffsetHostGw).str();
  return range;
}

// The user's routes as host-local reads them (dst and gw only, as the
// reference re-reads them), then one to each cluster network of a family
// the pod has an address in.
json routes_for(const json& ipam, const SubnetEnv& env, bool ipv4, bool ipv6) {
  json routes = json::array();
  if (const json* given = cni::kConfigFields.read_array(ipam, "routes", "ipam")) {
    for (std::size_t i = 0; i < given->size(); ++i) {
      const std::string path = cni::FieldReader::index_path("ipam.routes", i);
      try {
        const json& route = cni::kConfigFields.expect_object((*given)[i], path);
        json kept = json::object();
        if (auto dst = cni::kConfigFields.read_prefix(route, "dst", path)) kept["dst"] = dst->str();
        if (auto gw = cni::kConfigFields.read_address(route, "gw", path)) kept["gw"] = gw->str();
        if (!kept.contains("dst")) cni::kConfigFields.fail(path, "a route needs a dst");
        routes.push_back(std::move(kept));
      } catch (const cni::Error& e) {
        throw cni::Error(cni::kInvalidNetworkConfig,
                         "failed to assemble Delegate IPAM: failed to read IPAM routes: " + e.msg());
      }
    }
  }
  if (ipv4) {
    for (const IpPrefix& network : env.networks) routes.push_back({{"dst", network.str()}});
  }
  if (ipv6) {
    for (const IpPrefix& network : env.ipv6_networks) routes.push_back({{"dst", network.str()}});
  }
  return routes;
}

json delegate_ipam(const FlannelConfig& config, const SubnetEnv& env, Backend backend) {
  json ipam = config.ipam.is_object() ? config.ipam : json::object();
  if (!has_key(ipam, "type")) ipam["type"] = "host-local";
  const bool ipv4 = env.subnet.has_value();
  const bool ipv6 = env.ipv6_subnet.has_value() && backend == Backend::HostGw;
  if (!ipv4 && !ipv6) {
    throw cni::Error(
        cni::kInvalidNetworkConfig,
        backend == Backend::Vxlan
            ? fmt::format("{} has no FLANNEL_SUBNET: {} puts pods on an HNS overlay, which carries IPv4 only",
                          config.subnet_file, delegate_type(config))
            : fmt::format("{} has no subnet for this node", config.subnet_file));
  }
  json ranges = json::array();
  if (ipv4) ranges.push_back(json::array({range_for(*env.subnet, backend)}));
  if (ipv6) ranges.push_back(json::array({range_for(*env.ipv6_subnet, backend)}));
  json routes = routes_for(ipam, env, ipv4, ipv6);
  erase_other_cases(ipam, "ranges");
  erase_other_cases(ipam, "routes");
  ipam["ranges"] = std::move(ranges);
  ipam["routes"] = std::move(routes);
  return ipam;
}

void require_apart(const IpPrefix& services, const IpPrefix& pods) {
  if (!services.overlaps(pods)) return;
  cni::kConfigFields.fail("serviceCIDR", fmt::format("{} overlaps the pod network {} (subnet.env's FLANNEL_NETWORK): "
                                                     "services and pods need networks of their own",
                                                     services.str(), pods.str()));
}

}  // namespace

std::string delegate_type(const FlannelConfig& config) {
  return config.delegate.value("type", std::string(kDefaultDelegateType));
}

Backend backend_of(const FlannelConfig& config) {
  const std::string type = delegate_type(config);
  return type == "win-overlay" || type == "sdnoverlay" ? Backend::Vxlan : Backend::HostGw;
}

json delegate_config(const FlannelConfig& config, const SubnetEnv& env) {
  json delegate = config.delegate;
  delegate["type"] = delegate_type(config);
  delegate["name"] = config.name;
  erase_other_cases(delegate, "cniVersion");
  delegate["cniVersion"] = config.cni_version.empty() ? "0.2.0" : config.cni_version;
  if (!has_key(delegate, "ipMasq")) delegate["ipMasq"] = env.ip_masq;
  if (!has_key(delegate, "ipMasqNetwork") && !env.networks.empty())
    delegate["ipMasqNetwork"] = env.networks.front().str();
  delegate["ipam"] = delegate_ipam(config, env, backend_of(config));
  if (!config.runtime_config.is_null()) {
    erase_other_cases(delegate, "runtimeConfig");
    delegate["runtimeConfig"] = config.runtime_config;
  }
  if (!config.capabilities.is_null() && !has_key(delegate, "capabilities"))
    delegate["capabilities"] = config.capabilities;
  return delegate;
}

PolicySources policy_sources(const FlannelConfig& config, const SubnetEnv& env) {
  PolicySources sources;
  sources.backend = backend_of(config);
  sources.cluster_networks = env.networks;
  if (sources.backend == Backend::HostGw) {
    sources.cluster_networks.insert(sources.cluster_networks.end(), env.ipv6_networks.begin(), env.ipv6_networks.end());
  }
  for (const IpPrefix& written : config.service_networks) {
    // "10.96.0.10/12" is a service's address where the network belongs; and
    // services inside the pod network would take every pod's address for a
    // service's (the encap routes and NAT exceptions send pod traffic to
    // kube-proxy's load balancers). ADD and CHECK refuse both; DEL never
    // reads this, so pods added before still go.
    if (!written.is_network()) {
      cni::kConfigFields.fail("serviceCIDR", fmt::format("\"{}\" has host bits set; the network is {}", written.str(),
                                                         written.network().str()));
    }
    const IpPrefix network = written.network();
    for (const IpPrefix& pods : env.networks) require_apart(network, pods);
    for (const IpPrefix& pods : env.ipv6_networks) require_apart(network, pods);
    if (sources.backend == Backend::HostGw || network.family() == IpFamily::V4)
      sources.service_networks.push_back(network);
  }
  sources.node_ip = config.node_ip;
  return sources;
}

}  // namespace wincni::flannel
