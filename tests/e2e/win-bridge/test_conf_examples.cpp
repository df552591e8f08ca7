// Every config in conf-examples/ does what its README line says, on an
// emulated node set up the way that line describes.

#include <doctest/doctest.h>

#include "conf_examples.hpp"
#include "conflist_plugin.hpp"
#include "configs.hpp"
#include "emulated_node.hpp"
#include "endpoint_policies.hpp"
#include "hns_choices.hpp"

using namespace wincni;
using namespace wincni::test;
using nlohmann::json;

namespace {

json example(const EmulatedNode& node, std::string_view text) { return node.with_scratch_ipam(text); }

void add_check_del(const EmulatedNode& node, const json& config, const std::string& container, const std::string& ns) {
  const json result = node.add(container, ns, config.dump());
  json check = config;
  check["prevResult"] = result;
  Run run = node.plugin({"CHECK", container, ns, check.dump()});
  CHECK_MESSAGE(run.ok(), run.out);
  node.del(container, ns, config.dump());
}

}  // namespace

namespace {

// A pod as containerd runs it with a win-bridge config on a flannel host-gw
// node: port mapping and DNS filled in by the runtime, ADD, CHECK, DEL.
void containerd_pod(const EmulatedNode& node, json config) {
  config["runtimeConfig"] = {{"portMappings", {{{"hostPort", 8080}, {"containerPort", 80}, {"protocol", "tcp"}}}},
                             {"dns", {{"servers", {"10.96.0.10"}}, {"searches", {"default.svc.cluster.local"}}}}};
  const std::string ns = node.create_namespace();
  const json result = node.add("pod1", ns, config.dump());
  CHECK(result["cniVersion"] == config["cniVersion"]);
  CHECK(result["ips"][0]["gateway"] == "10.244.1.2");
  CHECK(result["dns"]["search"] == json{"default.svc.cluster.local"});
  const auto endpoint = node.endpoint("pod1_cbr0");
  REQUIRE(endpoint);
  CHECK(policies_of(*endpoint, "PortMapping").size() == 1);
  json check = config;
  check["prevResult"] = result;
  CHECK(node.plugin({"CHECK", "pod1", ns, check.dump()}).ok());
  node.del("pod1", ns, config.dump());
  CHECK(node.audit() == "");
  CHECK(node.held_addresses("cbr0").empty());
}

}  // namespace

TEST_CASE("conf-examples/win-bridge-containerd.conf on a flannel host-gw node" *
          doctest::test_suite("<namespace-listing><hns-picks>")) {
  EmulatedNode node;
  node.host_gw();
  containerd_pod(node, example(node, kContainerdExample));
}

TEST_CASE("conf-examples/win-bridge-containerd.conflist: containerd 1.7 runs it at 1.0.0, 2.x at 1.1.0 with STATUS" *
          doctest::test_suite("<namespace-listing><hns-picks>")) {
  EmulatedNode node;
  node.host_gw();
  for (const std::string version : {"1.0.0", "1.1.0"}) {
    CAPTURE(version);
    const json config = node.with_scratch_ipam(plugin_from_conflist(kContainerdListExample, version).dump());
    if (version == "1.1.0") {
      const Run status = node.plugin({"STATUS", "", "", config.dump()});
      CHECK_MESSAGE(status.ok(), status.out << status.err);
    }
    containerd_pod(node, config);
  }
}

TEST_CASE("conf-examples/win-bridge-dockershim.conf on a flannel host-gw node" *
          doctest::test_suite("<hns-v1><hns-picks>")) {
  EmulatedNode node;
  node.host_gw();
  const std::string config = example(node, kDockershimExample).dump();
  const json pause = node.add("pause1", "none", config);
  CHECK(pause["ip4"]["gateway"] == "10.244.1.2");
  CHECK(node.add("app1", "container:pause1", config) == pause);
  node.del("app1", "container:pause1", config);
  node.del("pause1", "none", config);
  CHECK(node.audit() == "");
  CHECK(node.held_addresses("cbr0").empty());
}

TEST_CASE("conf-examples/win-bridge-standalone.conf on a node without flanneld, both APIs" *
          doctest::test_suite("<hns-v1><hns-picks>")) {
  EmulatedNode node;
  const json config = example(node, kStandaloneExample);
  add_check_del(node, config, "pod1", node.create_namespace());
  CHECK(node.networks().size() == 1);
  CHECK(node.networks()[0]["Ipams"][0]["Subnets"][0]["Routes"][0]["NextHop"] == "10.10.187.65");
  CHECK((*node.endpoint("l2bridge_ep"))["IpConfigurations"] ==
        json::parse(R"([{"IpAddress":"10.10.187.66","PrefixLength":26}])"));
  const json pause = node.add("pause1", "none", config.dump());
  CHECK(pause["ips"][0]["gateway"] == "10.10.187.66");
  // Any address of the /26 but HNS's .65 and the bridge endpoint's .66: HNS's choice.
  CHECK(pause["ips"][0]["address"] == endpoint_address(*node.endpoint("pause1_l2bridge")) + "/26");
  CHECK(pause["ips"][0]["address"] != "10.10.187.65/26");
  CHECK(pause["ips"][0]["address"] != "10.10.187.66/26");
  node.del("pause1", "none", config.dump());
  CHECK(node.audit() == "");
}

TEST_CASE("conf-examples/win-bridge-dualstack.conf" * doctest::test_suite("<hns-picks>")) {
  EmulatedNode node;
  const json config = example(node, kDualStackExample);
  const std::string ns = node.create_namespace();
  const json result = node.add("pod1", ns, config.dump());
  REQUIRE(result["ips"].size() == 2);
  CHECK(result["ips"][0]["address"] == "10.244.2.3/24");
  CHECK(result["ips"][0]["gateway"] == "10.244.2.2");
  CHECK(result["ips"][1]["address"] == "fd00:10:244:2::3/64");
  CHECK(result["ips"][1]["gateway"] == "fd00:10:244:2::2");
  CHECK((*node.endpoint("l2bridge-ds_ep"))["IpConfigurations"] == json::parse(R"([
      {"IpAddress":"10.244.2.2","PrefixLength":24},{"IpAddress":"fd00:10:244:2::2","PrefixLength":64}])"));
  node.del("pod1", ns, config.dump());
  add_check_del(node, config, "pod2", ns);
  CHECK(node.audit() == "");
  CHECK(node.held_addresses("l2bridge-ds").empty());
}

// The Kubernetes Windows guide's node, dockershim era: its start-kubelet.ps1
// made the L2Bridge network "l2bridge" (HNS's gateway .65) and the host's
// vNIC at .66 before any pod. HNS assigns the pods' addresses; the config's
// v1-shaped policies go on each endpoint. (On a node without the network,
// win-bridge creates it the same way: test_fixtures.cpp.)
TEST_CASE("conf-examples/win-bridge-legacy-wincni.conf on the guide's node, both APIs" *
          doctest::test_suite("<hns-v1><hns-picks>")) {
  EmulatedNode node;
  node.host_gw("10.10.187.64/26", "l2bridge");
  const std::string network_id = node.networks()[0]["ID"];
  const std::string config = example(node, kLegacyWincniExample).dump();
  const json pause = node.add("pause1", "none", config);
  CHECK(pause["cniVersion"] == "0.2.0");
  // Any address but HNS's .65 and the vNIC's .66: HNS's choice.
  const std::string address = endpoint_address(*node.endpoint("pause1_l2bridge"));
  CHECK(pause["ip4"]["ip"] == address + "/26");
  CHECK(address != "10.10.187.65");
  CHECK(address != "10.10.187.66");
  CHECK(pause["ip4"]["gateway"] == "10.10.187.66");
  CHECK(node.add("app1", "container:pause1", config) == pause);
  const auto endpoint = node.endpoint("pause1_l2bridge");
  REQUIRE(endpoint);
  const auto outbound_nat = policies_of(*endpoint, "OutBoundNAT");
  REQUIRE(outbound_nat.size() == 1);
  CHECK(outbound_nat[0]["Settings"]["Exceptions"] == json{"11.0.0.0/8", "10.10.0.0/16", "10.127.132.128/25"});
  CHECK(policies_of(*endpoint, "SDNRoute").size() == 2);
  node.del("app1", "container:pause1", config);
  node.del("pause1", "none", config);

  const std::string ns = node.create_namespace();
  const json pod = node.add("pod1", ns, config);
  CHECK(pod["ip4"]["ip"] == endpoint_address(*node.endpoint("pod1_l2bridge")) + "/26");
  node.del("pod1", ns, config);
  REQUIRE(node.networks().size() == 1);
  CHECK(node.networks()[0]["ID"] == network_id);  // used as it was, not made again
  CHECK(node.audit() == "");
}

// An sdnbridge user's config on the flannel host-gw node it was written
// for, as containerd runs it: the pods' gateway is cbr0_ep (.2), Microsoft's
// v2 policies under AdditionalArgs go on the endpoint as written.
TEST_CASE("conf-examples/win-bridge-sdnbridge.conf on a flannel host-gw node" * doctest::test_suite("<hns-picks>")) {
  EmulatedNode node;
  node.host_gw();
  const json config = example(node, kSdnbridgeExample);
  containerd_pod(node, config);

  const std::string ns = node.create_namespace();
  node.add("pod2", ns, config.dump());
  const auto endpoint = node.endpoint("pod2_cbr0");
  REQUIRE(endpoint);
  CHECK((*endpoint)["Policies"] == json::parse(R"([
      {"Type":"OutBoundNAT","Settings":{"Exceptions":["10.96.0.0/12","10.244.0.0/16","192.168.1.0/24"]}},
      {"Type":"SDNRoute","Settings":{"DestinationPrefix":"10.96.0.0/12","NeedEncap":true}},
      {"Type":"SDNRoute","Settings":{"DestinationPrefix":"192.168.1.10/32","NeedEncap":true}}])"));
  node.del("pod2", ns, config.dump());
  CHECK(node.audit() == "");
}
