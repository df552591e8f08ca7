// Every fixture config that names a bridge network, on an emulated node:
// each works (the network present, or created from the config), or is
// rejected with the reason.

#include <doctest/doctest.h>

#include "configs.hpp"
#include "emulated_node.hpp"
#include "endpoint_policies.hpp"
#include "hns_choices.hpp"

using namespace wincni;
using namespace wincni::test;
using nlohmann::json;

namespace {

json sent_policies_of(const EmulatedNode& node, const std::string& endpoint) {
  auto found = node.endpoint(endpoint);
  REQUIRE(found);
  return sent_policies(*found);
}

json network_named(const EmulatedNode& node, const std::string& name) {
  for (const json& network : node.networks()) {
    if (network.value("Name", "") == name) return network;
  }
  FAIL("no network " << name);
  return {};
}

}  // namespace

TEST_CASE("legacy wincni example: network created from it, HNS assigns, gateway from ipam.routes GW; both APIs" *
          doctest::test_suite("<hns-v1><hns-picks>")) {
  EmulatedNode node;
  const std::string config = fixture(node, "legacy-wincni-l2bridge.conf").dump();

  // dockershim (HNS v1)
  const json pause = node.add("pause1", "none", config);
  // HNS keeps .65 (the network's gateway), the bridge endpoint holds .66 (the
  // pods' gateway); which other address the pod gets is HNS's choice.
  const std::string address = endpoint_address(*node.endpoint("pause1_l2bridge"));
  CHECK(address != "10.10.187.65");
  CHECK(address != "10.10.187.66");
  json expected = json::parse(R"({"cniVersion":"0.2.0","ip4":{"ip":"HNS's choice","gateway":"10.10.187.66",
      "routes":[{"dst":"0.0.0.0/0","gw":"10.10.187.66"}]},"dns":{"nameservers":["11.0.0.10"]}})");
  expected["ip4"]["ip"] = address + "/26";
  CHECK(pause == expected);
  const json network = network_named(node, "l2bridge");
  CHECK(network["Type"] == "L2Bridge");
  CHECK(network["Ipams"][0]["Subnets"][0]["IpAddressPrefix"] == "10.10.187.64/26");
  CHECK(network["Ipams"][0]["Subnets"][0]["Routes"][0]["NextHop"] == "10.10.187.65");
  CHECK((*node.endpoint("l2bridge_ep"))["IpConfigurations"][0]["IpAddress"] == "10.10.187.66");
  CHECK(sent_policies_of(node, "pause1_l2bridge") == json::parse(R"([
      {"Type":"OutBoundNAT","Settings":{"Exceptions":["11.0.0.0/8","10.10.0.0/16","10.127.132.128/25"]}},
      {"Type":"SDNRoute","Settings":{"DestinationPrefix":"11.0.0.0/8","NeedEncap":true}},
      {"Type":"SDNRoute","Settings":{"DestinationPrefix":"10.127.132.213/32","NeedEncap":true}}])"));
  CHECK(node.add("app1", "container:pause1", config) == pause);
  node.del("app1", "container:pause1", config);
  node.del("pause1", "none", config);
  CHECK_FALSE(node.endpoint("pause1_l2bridge"));

  // containerd (HCN), on the network the first ADD created
  const std::string ns = node.create_namespace();
  const json pod = node.add("pod1", ns, config);
  CHECK(pod["ip4"]["ip"] == endpoint_address(*node.endpoint("pod1_l2bridge")) + "/26");
  CHECK(node.networks().size() == 1);
  node.del("pod1", ns, config);
  CHECK(node.audit() == "");
}

TEST_CASE("the reference's win-bridge example: HNS v1, HNS assigns, bridge gateway, loopback DSR" *
          doctest::test_suite("<hns-v1><hns-picks>")) {
  EmulatedNode node;
  node.host_gw();
  const std::string config = fixture(node, "ref-win-bridge-v1.conf").dump();
  const json pause = node.add("pause1", "none", config);
  const std::string address = endpoint_address(*node.endpoint("pause1_cbr0"));
  // No cniVersion: 0.1.0.
  json expected = json::parse(R"({"cniVersion":"0.1.0","ip4":{"ip":"HNS's choice","gateway":"10.244.1.2",
      "routes":[{"dst":"0.0.0.0/0","gw":"10.244.1.2"}]},"dns":{"nameservers":["11.0.0.10"],"search":["svc.cluster.local"]}})");
  expected["ip4"]["ip"] = address + "/24";
  CHECK(pause == expected);
  json policies = json::parse(R"([
      {"Type":"OutBoundNAT","Settings":{"Exceptions":["192.168.0.0/16","11.0.0.0/8","10.137.196.0/23"]}},
      {"Type":"SDNRoute","Settings":{"DestinationPrefix":"11.0.0.0/8","NeedEncap":true}},
      {"Type":"SDNRoute","Settings":{"DestinationPrefix":"10.137.198.27/32","NeedEncap":true}},
      {"Type":"OutBoundNAT","Settings":{"Destinations":["HNS's choice"]}}])");
  policies[3]["Settings"]["Destinations"][0] = address;
  CHECK(sent_policies_of(node, "pause1_cbr0") == policies);
  node.del("pause1", "none", config);
  CHECK(node.audit() == "");
}

TEST_CASE("loopback DSR where HNS cannot do it is a clear error") {
  EmulatedNode node;
  node.host_gw();
  const std::string config = fixture(node, "ref-win-bridge-v1.conf").dump();
  Run run = node.plugin({"ADD", "pause1", "none", config, {{"WINCNI_EMULATOR_HNS_VERSION", "9.2"}}});
  CHECK(run.code() == 2);
  CHECK(run.msg() == "loopbackDSR needs HNS with DSR support (9.3-9.x, 10.2 and later); this host's HNS is 9.2");
  CHECK(node.audit() == "");
}

TEST_CASE("loopback DSR where HNS cannot do it: a config that could create the network creates nothing") {
  EmulatedNode node;
  json config = fixture(node, "legacy-wincni-l2bridge.conf");  // master and a subnet: creatable
  config["loopbackDSR"] = true;
  Run run =
      node.plugin({"ADD", "pod1", node.create_namespace(), config.dump(), {{"WINCNI_EMULATOR_HNS_VERSION", "9.2"}}});
  CHECK(run.code() == 2);
  CHECK(run.msg() == "loopbackDSR needs HNS with DSR support (9.3-9.x, 10.2 and later); this host's HNS is 9.2");
  CHECK(node.networks().empty());
  CHECK(node.endpoints().empty());
  // Where HNS has DSR, the same ADD creates it.
  CHECK(node.plugin({"ADD", "pod1", node.create_namespace(), config.dump()}).ok());
  CHECK(node.networks().size() == 1);
}

TEST_CASE("flannel's delegate from the reference's example: containerd, host-local, loopback DSR" *
          doctest::test_suite("<namespace-listing>")) {
  EmulatedNode node;
  node.host_gw();
  const std::string ns = node.create_namespace();
  const std::string config = flannel_fixture(node, "ref-flannel-win-bridge-v2.conf").dump();
  const json result = node.add("pod1", ns, config);
  CHECK(result["cniVersion"] == "0.2.0");
  CHECK(result["ip4"]["ip"] == "10.244.1.3/24");
  CHECK(result["ip4"]["gateway"] == "10.244.1.2");
  CHECK(sent_policies_of(node, "pod1_cbr0") == json::parse(R"([
      {"Type":"OutBoundNAT","Settings":{"Exceptions":["192.168.0.0/16","11.0.0.0/8","10.137.196.0/23","10.244.0.0/16"]}},
      {"Type":"SDNRoute","Settings":{"DestinationPrefix":"11.0.0.0/8","NeedEncap":true}},
      {"Type":"SDNRoute","Settings":{"DestinationPrefix":"10.137.198.27/32","NeedEncap":true}},
      {"Type":"OutBoundNAT","Settings":{"Destinations":["10.244.1.3"]}}])"));
  node.del("pod1", ns, config);
  CHECK(node.held_addresses("cbr0").empty());
  CHECK(node.audit() == "");
}

TEST_CASE("flannel's delegate from Microsoft's example (sdnbridge, forceBridgeGateway)") {
  EmulatedNode node;
  node.host_gw();
  const std::string ns = node.create_namespace();
  const std::string config = flannel_fixture(node, "ms-flannel_l2bridge.conf").dump();
  const json result = node.add("pod1", ns, config);
  CHECK(result["ip4"]["gateway"] == "10.244.1.2");
  CHECK(sent_policies_of(node, "pod1_cbr0") == json::parse(R"([
      {"Type":"OutBoundNAT","Settings":{"Exceptions":["10.244.0.0/16","10.96.0.0/12"]}},
      {"Type":"SDNRoute","Settings":{"DestinationPrefix":"10.96.0.0/12","NeedEncap":true}},
      {"Type":"SDNRoute","Settings":{"DestinationPrefix":"10.132.34.98/32","NeedEncap":true}}])"));
  node.del("pod1", ns, config);
  CHECK(node.audit() == "");
}

TEST_CASE("Microsoft's l2bridge example: network created with its bridge endpoint, HNS assigns, explicit gateway" *
          doctest::test_suite("<hns-picks>")) {
  EmulatedNode node;
  const std::string ns = node.create_namespace();
  const std::string config = fixture(node, "ms-l2bridge.conf").dump();
  const json result = node.add("pod1", ns, config);
  json expected = json::parse(R"({"cniVersion":"0.2.0","ip4":{"ip":"HNS's choice","gateway":"192.168.1.2",
      "routes":[{"dst":"0.0.0.0/0","gw":"192.168.1.2"}]},"dns":{"nameservers":["11.0.0.10"],"search":["svc.cluster.local"]}})");
  expected["ip4"]["ip"] = endpoint_address(*node.endpoint("pod1_l2bridgeNetwork")) + "/24";
  CHECK(result == expected);
  CHECK(network_named(node, "l2bridgeNetwork")["Type"] == "L2Bridge");
  CHECK((*node.endpoint("l2bridgeNetwork_ep"))["IpConfigurations"][0]["IpAddress"] == "192.168.1.2");
  node.del("pod1", ns, config);
  CHECK(node.audit() == "");
}

TEST_CASE("Microsoft's dual-stack example with host-local: both families on one endpoint" *
          doctest::test_suite("<hns-picks>")) {
  EmulatedNode node;
  const std::string ns = node.create_namespace();
  const json config = fixture(node, "ms-l2bridgedualstack_host-local_ipam.conf");
  const json result = node.add("pod1", ns, config.dump());
  CHECK(result["ip4"]["ip"] == "192.168.1.10/24");
  CHECK(result["ip4"]["gateway"] == "192.168.1.2");
  CHECK(result["ip6"]["ip"] == "fd00::102/120");
  CHECK(result["ip6"]["gateway"] == "fd00::101");
  CHECK(sent_policies_of(node, "pod1_winl2bridge") == json::parse(R"([
      {"Type":"OutBoundNAT","Settings":{"Exceptions":["192.168.0.0/16","11.0.0.0/8","10.124.24.0/23"]}},
      {"Type":"OutBoundNAT","Settings":{"VirtualIP":"fc00::123","Destinations":["fd01::192","fd01::193"],
                                         "Exceptions":["fd03::100/120","fd04::100/120"]}},
      {"Type":"SDNRoute","Settings":{"DestinationPrefix":"11.0.0.0/8","NeedEncap":true}},
      {"Type":"SDNRoute","Settings":{"DestinationPrefix":"fd00::200/120","NeedEncap":true}}])"));
  // The bridge endpoint holds the IPv4 gateway; the IPv6 one (fd00::101) is
  // the address HNS keeps, which no endpoint can hold.
  const json bridge = (*node.endpoint("winl2bridge_ep"))["IpConfigurations"];
  CHECK(bridge == json::parse(R"([{"IpAddress":"192.168.1.2","PrefixLength":24}])"));
  auto endpoint = node.endpoint("pod1_winl2bridge");
  CHECK((*endpoint)["IpConfigurations"].size() == 2);
  node.del("pod1", ns, config.dump());
  CHECK(node.held_addresses("winl2bridge").empty());
  CHECK(node.audit() == "");
}

TEST_CASE("port mappings with Microsoft's flags: local-routed, with an inbound ACL") {
  EmulatedNode node;
  node.host_gw();
  const std::string ns = node.create_namespace();
  json config = bridge_config(node);
  config["optionalFlags"] = {{"localRoutedPortMapping", true}, {"allowAclPortMapping", true}};
  config["runtimeConfig"] = {
      {"portMappings",
       {{{"hostPort", 8080}, {"containerPort", 80}, {"protocol", "TCP"}},
        {{"hostPort", 5353}, {"containerPort", 53}, {"protocol", 17}, {"hostIP", "192.0.2.4"}}}}};
  node.add("pod1", ns, config.dump());
  const json policies = sent_policies_of(node, "pod1_cbr0");
  REQUIRE(policies.size() == 6);
  CHECK(policies[2] ==
        json::parse(
            R"({"Type":"PortMapping","Settings":{"Protocol":6,"InternalPort":80,"ExternalPort":8080,"Flags":1}})"));
  CHECK(policies[3]["Type"] == "ACL");
  CHECK(
      policies[4] ==
      json::parse(
          R"({"Type":"PortMapping","Settings":{"Protocol":17,"InternalPort":53,"ExternalPort":5353,"VIP":"192.0.2.4","Flags":1}})"));
  // A second pod cannot publish the same host port: HNS says so, and nothing is left.
  const std::string ns2 = node.create_namespace();
  Run run = node.plugin({"ADD", "pod2", ns2, config.dump()});
  CHECK(run.code() == 100);
  CHECK(run.msg().find("HCN_E_PORT_ALREADY_EXISTS") != std::string::npos);
  CHECK(node.held_addresses("cbr0").size() == 1);
  config["runtimeConfig"]["portMappings"][0]["protocol"] = "sctp";
  run = node.plugin({"ADD", "pod2", ns2, config.dump()});
  CHECK(run.code() == 7);
  CHECK(run.msg() ==
        "runtimeConfig.portMappings[0].protocol: unknown protocol \"sctp\" (expected tcp, udp or a protocol number)");
  node.del("pod1", ns, config.dump());
  CHECK(node.audit() == "");
}

TEST_CASE("IPv6 where HNS has no dual stack is a clear error, and nothing is left") {
  EmulatedNode node;
  node.host_gw();
  const std::string ns = node.create_namespace();
  json config = bridge_config(node);
  config["ipam"].erase("subnet");
  config["ipam"]["ranges"] = json::parse(R"([[{"subnet":"10.244.1.0/24"}],[{"subnet":"fd00:1::/64"}]])");
  Run run = node.plugin({"ADD", "pod1", ns, config.dump(), {{"WINCNI_EMULATOR_HNS_VERSION", "10.4"}}});
  CHECK(run.code() == 2);
  CHECK(run.msg().starts_with("the IPv6 address fd00:1::"));
  CHECK(node.held_addresses("cbr0").empty());
  CHECK(node.audit() == "");
}

TEST_CASE("Microsoft's l2tunnel example: its IPAM plugin is not on this node; with host-local it works") {
  EmulatedNode node;
  const std::string ns = node.create_namespace();
  json config = fixture(node, "ms-l2tunnel.conf");
  Run run = node.plugin({"ADD", "pod1", ns, config.dump()});
  CHECK(run.code() == 7);
  CHECK(run.msg().starts_with("failed to find plugin \"azure-vnet-ipam\""));
  CHECK(node.audit() == "");

  config["ipam"] = {{"type", "host-local"}, {"subnet", "10.240.0.0/12"}, {"dataDir", node.ipam_dir()}};
  const json result = node.add("pod1", ns, config.dump());
  CHECK(network_named(node, "l2tunnelNetwork")["Type"] == "L2Tunnel");
  // L2Tunnel: no bridge endpoint; the gateway is the subnet's, which HNS keeps.
  CHECK(result["ip4"]["ip"] == "10.240.0.2/12");
  CHECK(result["ip4"]["gateway"] == "10.240.0.1");
  node.del("pod1", ns, config.dump());
  CHECK(node.audit() == "");
}

TEST_CASE("fixtures that cannot work are rejected with the reason") {
  EmulatedNode node;
  node.host_gw();
  const std::string ns = node.create_namespace();
  Run run = node.plugin({"ADD", "pod1", ns, std::string(fixture_config("ms-nat.conf"))});
  CHECK(run.code() == 7);
  CHECK(run.msg() == "ipam.routes[0]: needs a \"dst\" or a \"gw\"");
  run = node.plugin({"ADD", "pod1", ns, std::string(fixture_config("ms-l2bridge-dualstack-cni-template.conf"))});
  CHECK(run.code() == 7);
  CHECK(run.msg() == "invalid characters found in network name");
  run = node.plugin({"ADD", "pod1", ns, std::string(fixture_config("ms-flannel_l2bridge.conf"))});
  CHECK(run.code() == 6);  // no-break spaces: no JSON parser accepts them
  CHECK(node.audit() == "");
}
