// win-overlay's pods on flanneld's vxlan node, through the real binaries:
// what the endpoint carries on HCN and on HNS v1, the configs users have,
// and the configs it must refuse without leaving anything behind.

#include <doctest/doctest.h>

#include <algorithm>

#include "emulated_node.hpp"
#include "endpoint_policies.hpp"
#include "mixed_workload.hpp"
#include "overlay_configs.hpp"

using namespace wincni;
using namespace wincni::test;
using nlohmann::json;

namespace {

// The config's network name, however the config spells the key.
std::string network_of(const json& config) { return config.contains("name") ? config["name"] : config["Name"]; }

struct Pod {
  json result;
  json endpoint;
};

// ADD for pod1 with `config`, on `netns`; the result and the endpoint HNS holds.
Pod add_pod(const EmulatedNode& node, const std::string& netns, const json& config) {
  Pod pod;
  pod.result = node.add("pod1", netns, config.dump());
  auto endpoint = node.endpoint("pod1_" + network_of(config));
  REQUIRE(endpoint);
  pod.endpoint = *endpoint;
  return pod;
}

void remove_pod(const EmulatedNode& node, const std::string& netns, const json& config) {
  node.del("pod1", netns, config.dump());
  const std::string network = network_of(config);
  CHECK_FALSE(node.endpoint("pod1_" + network));
  CHECK(node.held_addresses(network).empty());
  CHECK(node.audit() == "");
}

}  // namespace

TEST_CASE("containerd on flanneld's vxlan node: MAC from the address, provider address, one OutBoundNAT, gateway .1") {
  EmulatedNode node;
  node.vxlan();
  const std::string netns = node.create_namespace();
  json config = overlay_config(node);
  config["runtimeConfig"] = {{"portMappings", {{{"hostPort", 8080}, {"containerPort", 80}, {"protocol", "tcp"}}}}};
  const Pod pod = add_pod(node, netns, config);

  CHECK(pod.result["ips"][0]["address"] == "10.244.3.2/24");
  CHECK(pod.result["ips"][0]["gateway"] == "10.244.3.1");
  CHECK(pod.result["interfaces"][0]["mac"] == "0e:2a:0a:f4:03:02");
  CHECK(pod.endpoint["MacAddress"] == "0E-2A-0A-F4-03-02");
  const auto provider = policies_of(pod.endpoint, "ProviderAddress");
  REQUIRE(provider.size() == 1);
  CHECK(provider[0]["Settings"]["ProviderAddress"] == "192.0.2.4");  // the emulated node's adapter
  const auto nat = policies_of(pod.endpoint, "OutBoundNAT");
  REQUIRE(nat.size() == 1);
  CHECK(nat[0]["Settings"]["Exceptions"] == json{"10.96.0.0/12", "10.244.0.0/16"});
  REQUIRE(policies_of(pod.endpoint, "SDNRoute").size() == 1);
  // Port mappings, which the reference plugin drops (containernetworking/plugins#530).
  const auto mappings = policies_of(pod.endpoint, "PortMapping");
  REQUIRE(mappings.size() == 1);
  CHECK(mappings[0]["Settings"]["ExternalPort"] == 8080);
  CHECK(mappings[0]["Settings"]["InternalPort"] == 80);
  CHECK(mappings[0]["Settings"]["Flags"] == 1);  // LocalRoutedVip

  json check = config;
  check["prevResult"] = pod.result;
  Run checked = node.plugin({"CHECK", "pod1", netns, check.dump()});
  CHECK_MESSAGE(checked.ok(), checked.out);
  remove_pod(node, netns, config);
}

// hnsctl shows every endpoint in HCN's shape, whichever API made it.
TEST_CASE("dockershim (HNS v1): the PA policy, the MAC, and IPAM is required" * doctest::test_suite("<hns-v1>")) {
  EmulatedNode node;
  node.vxlan();
  json config = overlay_config(node, "0.2.0");
  config.erase("apiVersion");
  config["policies"] = json::array();
  const Pod pod = add_pod(node, "none", config);
  CHECK(pod.result["ip4"]["ip"] == "10.244.3.2/24");
  CHECK(pod.result["ip4"]["gateway"] == "10.244.3.1");
  const auto pa = policies_of(pod.endpoint, "ProviderAddress");
  REQUIRE(pa.size() == 1);
  CHECK(pa[0]["Settings"]["ProviderAddress"] == "192.0.2.4");
  CHECK(pod.endpoint["MacAddress"] == "0E-2A-0A-F4-03-02");
  remove_pod(node, "none", config);

  json no_ipam = config;
  no_ipam.erase("ipam");
  Run run = node.plugin({"ADD", "pod1", "none", no_ipam.dump()});
  CHECK(run.code() == 7);
  CHECK_MESSAGE(run.msg().find("needs an \"ipam\" section") != std::string::npos, run.msg());
  CHECK(node.endpoints().empty());
}

TEST_CASE("on HCN without IPAM, HNS assigns the address (and picks the MAC)") {
  EmulatedNode node;
  node.vxlan();
  const std::string netns = node.create_namespace();
  json config = overlay_config(node);
  config.erase("ipam");
  const Pod pod = add_pod(node, netns, config);
  CHECK(pod.result["ips"][0]["gateway"] == "10.244.3.1");
  CHECK(policies_of(pod.endpoint, "ProviderAddress").size() == 1);
  remove_pod(node, netns, config);
}

TEST_CASE("the reference's v2 sample (OVN hybrid overlay): its own provider address wins") {
  EmulatedNode node;
  node.vxlan("10.132.0.0/24", "OVNKubernetesHybridOverlayNetwork");
  const std::string netns = node.create_namespace();
  const json config = fixture(node, "ref-win-overlay-v2.conf");
  const Pod pod = add_pod(node, netns, config);
  CHECK(pod.result["ip4"]["ip"] == "10.132.0.2/24");
  const auto provider = policies_of(pod.endpoint, "ProviderAddress");
  REQUIRE(provider.size() == 1);
  CHECK(provider[0]["Settings"]["ProviderAddress"] == "10.0.133.170");
  remove_pod(node, netns, config);
}

TEST_CASE("the reference's v1 sample as flannel hands it over (with host-local), under dockershim" *
          doctest::test_suite("<hns-v1>")) {
  EmulatedNode node;
  node.vxlan("10.244.3.0/24", "vxlan0");
  json config = fixture(node, "ref-win-overlay-v1.conf");
  config["ipam"] = {{"type", "host-local"}, {"subnet", kOverlaySubnet}, {"dataDir", node.ipam_dir()}};
  const Pod pod = add_pod(node, "none", config);
  CHECK(pod.endpoint["Dns"]["ServerList"] == json{"11.0.0.10"});
  REQUIRE(policies_of(pod.endpoint, "SDNRoute").size() == 1);
  const auto nat = policies_of(pod.endpoint, "OutBoundNAT");
  REQUIRE(nat.size() == 1);
  CHECK(nat[0]["Settings"]["Exceptions"] == json{"192.168.0.0/16", "11.0.0.0/8"});
  remove_pod(node, "none", config);
}

TEST_CASE("Microsoft's flannel overlay template: its placeholder provider address is refused by name") {
  EmulatedNode node;
  node.vxlan("10.244.3.0/24", "vxlan0");
  const json config = overlay_delegate(node, "ms-flannel_overlay.conf");
  Run run = node.plugin({"ADD", "pod1", node.create_namespace(), config.dump()});
  CHECK(run.code() == 7);
  CHECK_MESSAGE(run.msg().find("AdditionalArgs[2]") != std::string::npos, run.msg());
  CHECK(node.endpoints().empty());
  CHECK(node.held_addresses("vxlan0").empty());

  // Filled in, as the DaemonSets' scripts do with the node's address.
  json filled = config;
  filled["AdditionalArgs"][2]["Value"]["Settings"]["ProviderAddress"] = "192.0.2.4";
  filled["apiVersion"] = 2;
  const std::string netns = node.create_namespace();
  const Pod pod = add_pod(node, netns, filled);
  CHECK(policies_of(pod.endpoint, "ProviderAddress").size() == 1);
  remove_pod(node, netns, filled);
}

// rke2 and k3s (pkg/windows/flannel.go, pkg/agent/flannel): the delegate
// spells "Policies" with "Name"/"Value" and v1 policy shapes, with apiVersion 2.
TEST_CASE("rke2's delegate: mixed-case keys and v1 policy shapes on HCN" * doctest::test_suite("<hns-v1>")) {
  EmulatedNode node;
  node.vxlan();
  const std::string netns = node.create_namespace();
  const json config = json::parse(R"({"cniVersion":"1.0.0","name":"flannel.4096","type":"win-overlay","apiVersion":2,
    "Policies":[{"Name":"EndpointPolicy","Value":{"Type":"OutBoundNAT","ExceptionList":["10.42.0.0/16","10.43.0.0/16"]}},
                {"name":"EndpointPolicy","value":{"Type":"ROUTE","DestinationPrefix":"10.43.0.0/16","NeedEncap":true}}],
    "ipam":{"type":"host-local","subnet":"10.244.3.0/24"}})");
  json with_store = config;
  with_store["ipam"]["dataDir"] = node.ipam_dir();
  const Pod pod = add_pod(node, netns, with_store);
  const auto nat = policies_of(pod.endpoint, "OutBoundNAT");
  REQUIRE(nat.size() == 1);
  CHECK(nat[0]["Settings"]["Exceptions"] == json{"10.42.0.0/16", "10.43.0.0/16"});
  const auto route = policies_of(pod.endpoint, "SDNRoute");
  REQUIRE(route.size() == 1);
  CHECK(route[0]["Settings"]["NeedEncap"] == true);
  remove_pod(node, netns, with_store);
}

// OpenShift's Windows Machine Config Operator: capitalised top-level keys,
// every field written in every policy, OutBoundNAT's exceptions under the v1
// name inside v2 Settings, and lower-case "type"/"settings" in places.
TEST_CASE("OpenShift's hybrid overlay config: its exceptions reach HNS") {
  EmulatedNode node;
  node.vxlan("10.132.0.0/24", "OVNKubernetesHybridOverlayNetwork");
  const std::string netns = node.create_namespace();
  json config = json::parse(R"({"CniVersion":"0.2.0","Name":"OVNKubernetesHybridOverlayNetwork","Type":"win-overlay",
    "apiVersion":2,"Capabilities":{"portMappings":true,"Dns":true},
    "Ipam":{"Type":"host-local","Subnet":"10.132.0.0/24"},
    "Policies":[
      {"Name":"EndpointPolicy","Value":{"Type":"OutBoundNAT","Settings":{"ExceptionList":["172.30.0.0/16"],
                                        "DestinationPrefix":"","NeedEncap":false}}},
      {"Name":"EndpointPolicy","Value":{"Type":"SDNROUTE","Settings":{"ExceptionList":[],
                                        "DestinationPrefix":"172.30.0.0/16","NeedEncap":true}}},
      {"name":"EndpointPolicy","value":{"type":"ProviderAddress","settings":{"ProviderAddress":"10.0.133.170"}}}]})");
  config["Ipam"]["dataDir"] = node.ipam_dir();
  const Pod pod = add_pod(node, netns, config);
  const auto nat = policies_of(pod.endpoint, "OutBoundNAT");
  REQUIRE(nat.size() == 1);
  CHECK(nat[0]["Settings"]["Exceptions"] == json{"172.30.0.0/16"});
  CHECK(policies_of(pod.endpoint, "SDNRoute").size() == 1);
  CHECK(policies_of(pod.endpoint, "ProviderAddress")[0]["Settings"]["ProviderAddress"] == "10.0.133.170");
  remove_pod(node, netns, config);
}

TEST_CASE("refused, leaving nothing: IPv6, a network of another type, a network that never comes") {
  EmulatedNode node;
  node.vxlan();
  node.host_gw();
  const std::string netns = node.create_namespace();

  json v6 = overlay_config(node);
  v6["ipam"] = {{"type", "host-local"},
                {"dataDir", node.ipam_dir()},
                {"ranges", {{{{"subnet", kOverlaySubnet}}}, {{{"subnet", "fd00:3::/64"}}}}}};
  Run run = node.plugin({"ADD", "pod1", netns, v6.dump()});
  CHECK(run.code() == 2);
  CHECK_MESSAGE(run.msg().find("fd00:3::/64") != std::string::npos, run.msg());

  json bridge = overlay_config(node);
  bridge["name"] = "cbr0";
  run = node.plugin({"ADD", "pod1", netns, bridge.dump()});
  CHECK(run.code() == 120);
  CHECK_MESSAGE(run.msg().find("L2Bridge") != std::string::npos, run.msg());

  json absent = overlay_config(node);
  absent["name"] = "flannel.4097";
  absent["networkWaitSeconds"] = 0.2;
  run = node.plugin({"ADD", "pod1", netns, absent.dump()});
  CHECK(run.code() == 11);
  CHECK_MESSAGE(run.msg().find("flanneld") != std::string::npos, run.msg());

  CHECK(node.endpoints().size() == 1);  // cbr0_ep, the host-gw node's own
  CHECK(node.held_addresses("flannel.4096").empty());
  CHECK(node.held_addresses("cbr0").empty());
  CHECK(node.audit() == "");
}

TEST_CASE("a busy node: mixed ADD, DEL, CHECK and STATUS over many pods from 8 workers at once") {
  EmulatedNode node;
  node.vxlan();
  check_busy_node(node, overlay_config(node, "1.1.0").dump(), busy_workload("flannel.4096"));
}
