// flannel's pods on flanneld's nodes, through the real binaries (flannel,
// win-bridge or win-overlay, host-local): the delegate config it saves,
// what the endpoint gets, and a clean node after DEL.

#include <doctest/doctest.h>

#include "flannel_node.hpp"
#include "folder_access.hpp"
#include "mixed_workload.hpp"

using namespace wincni::test;
using nlohmann::json;

TEST_CASE(
    "host-gw: the first pod gets .3, never flanneld's .2; the saved delegate config is win-bridge's; DEL cleans up") {
  FlannelNode node;
  node.host_gw_node();
  const json config = node.config("cbr0");
  const std::string netns = node.create_namespace();
  const json result = node.add("pod1", netns, config.dump());
  CHECK(result["ips"][0]["address"] == "10.244.4.3/24");
  CHECK(result["ips"][0]["gateway"] == "10.244.4.2");  // win-bridge's: flanneld's bridge endpoint

  const json saved = node.scratch("pod1");
  CHECK(saved ==
        json{{"cniVersion", "1.0.0"},
             {"name", "cbr0"},
             {"type", "win-bridge"},
             {"ipMasq", true},
             {"ipMasqNetwork", "10.244.0.0/16"},
             {"ipam",
              {{"type", "host-local"},
               {"dataDir", node.ipam_dir()},
               {"ranges", json::array({json::array({{{"subnet", "10.244.4.0/24"}, {"rangeStart", "10.244.4.3"}}})})},
               {"routes", json::array({{{"dst", "10.244.0.0/16"}}})}}}});
  const auto endpoint = node.endpoint("pod1_cbr0");
  REQUIRE(endpoint);
  CHECK(policies_of(*endpoint, "OutBoundNAT").size() == 1);

  node.del("pod1", netns, config.dump());
  CHECK_FALSE(node.endpoint("pod1_cbr0"));
  CHECK_FALSE(node.has_scratch("pod1"));
  node.check_clean("cbr0");
  node.del("pod1", netns, config.dump());  // a second DEL succeeds
}

TEST_CASE("host-gw with serviceCIDR: the node's own address from HNS as an exception and an encap route") {
  FlannelNode node;
  node.host_gw_node();
  const json config = node.config("cbr0", {{"serviceCIDR", "10.96.0.0/12"}});
  const std::string netns = node.create_namespace();
  node.add("pod1", netns, config.dump());
  const auto endpoint = node.endpoint("pod1_cbr0");
  REQUIRE(endpoint);
  const auto nat = policies_of(*endpoint, "OutBoundNAT");
  REQUIRE(nat.size() == 1);
  // The emulator's host adapter has 192.0.2.4 (hnsctl node --management-ip).
  CHECK(nat[0]["Settings"]["Exceptions"] == json::parse(R"(["10.244.0.0/16","10.96.0.0/12","192.0.2.4/32"])"));
  const auto routes = policies_of(*endpoint, "SDNRoute");
  REQUIRE(routes.size() == 2);
  CHECK(routes[0]["Settings"]["DestinationPrefix"] == "10.96.0.0/12");
  CHECK(routes[1]["Settings"]["DestinationPrefix"] == "192.0.2.4/32");
  CHECK(routes[1]["Settings"]["NeedEncap"] == true);
  node.del("pod1", netns, config.dump());
  node.check_clean("cbr0");
}

TEST_CASE("a config named for a network flanneld did not make: code 11, naming the networks HNS has") {
  FlannelNode node;
  node.host_gw_node();
  const json config = node.config("cbr1", {{"serviceCIDR", "10.96.0.0/12"}});
  const Run run = node.plugin({"ADD", "pod1", node.create_namespace(), config.dump()});
  CHECK(run.code() == 11);
  CHECK_MESSAGE(run.msg().find("HNS network \"cbr1\" not found") == 0, run.msg());
  CHECK_MESSAGE(run.msg().find("; HNS has \"cbr0\" (L2Bridge)") != std::string::npos, run.msg());
  // nodeIP would not make the network appear: no such advice.
  CHECK_MESSAGE(run.msg().find("nodeIP") == std::string::npos, run.msg());
  node.check_clean("cbr1");
}

TEST_CASE("vxlan: win-overlay with the generated exceptions, service route and provider address") {
  FlannelNode node;
  node.vxlan_node();
  const json config =
      node.config("flannel.4096", {{"serviceCIDR", "10.96.0.0/12"}, {"delegate", {{"type", "win-overlay"}}}});
  const std::string netns = node.create_namespace();
  const json result = node.add("pod1", netns, config.dump());
  CHECK(result["ips"][0]["address"] == "10.244.4.2/24");  // nothing of flanneld's at .2 on an overlay
  const auto endpoint = node.endpoint("pod1_flannel.4096");
  REQUIRE(endpoint);
  const auto nat = policies_of(*endpoint, "OutBoundNAT");
  REQUIRE(nat.size() == 1);
  CHECK(nat[0]["Settings"]["Exceptions"] == json::parse(R"(["10.244.0.0/16","10.96.0.0/12"])"));
  const auto pa = policies_of(*endpoint, "ProviderAddress");
  REQUIRE(pa.size() == 1);
  CHECK(pa[0]["Settings"]["ProviderAddress"] == "192.0.2.4");
  CHECK(policies_of(*endpoint, "SDNRoute").size() == 1);
  CHECK(node.scratch("pod1")["type"] == "win-overlay");
  node.del("pod1", netns, config.dump());
  node.check_clean("flannel.4096");
}

TEST_CASE("DEL without the scratch file, or with a torn one, still tears the pod down (the reference leaks it)") {
  FlannelNode node;
  node.host_gw_node();
  const json config = node.config("cbr0");
  for (const std::string damage : {"removed", "torn"}) {
    CAPTURE(damage);
    const std::string netns = node.create_namespace();
    node.add("pod1", netns, config.dump());
    if (damage == "removed") {
      std::filesystem::remove(node.scratch_file("pod1"));
    } else {
      std::ofstream(node.scratch_file("pod1"), std::ios::trunc) << "{\"type\":";
    }
    node.del("pod1", netns, config.dump());
    CHECK_FALSE(node.endpoint("pod1_cbr0"));
    node.check_clean("cbr0");
  }
}

// A saved delegate config is what DEL acts on: one kept where someone else
// could swap it would have DEL act on theirs.
TEST_CASE("ADD refuses a dataDir others may write, before anything is made: code 5") {
  FlannelNode node;
  node.host_gw_node();
  const json config = node.config("cbr0");
  std::filesystem::create_directories(node.scratch_dir());
  let_everyone_write(node.scratch_dir());
  const std::string netns = node.create_namespace();
  const Run refused = node.plugin({"ADD", "pod1", netns, config.dump()});
  CHECK(refused.code() == 5);  // I/O failure
  CHECK_MESSAGE(refused.msg().find("could replace what a plugin keeps there") != std::string::npos, refused.report());
  CHECK_FALSE(node.endpoint("pod1_cbr0"));
  node.check_clean("cbr0");
  let_only_administrators_write(node.scratch_dir());
  node.add("pod1", netns, config.dump());
  node.del("pod1", netns, config.dump());
  node.check_clean("cbr0");
}

TEST_CASE("DEL after subnet.env changed replays what ADD saved") {
  FlannelNode node;
  node.host_gw_node();
  const json config = node.config("cbr0");
  const std::string netns = node.create_namespace();
  node.add("pod1", netns, config.dump());
  // A new lease: another subnet (the node rejoined). The old pod's address
  // is still released from the range it came from.
  node.write_subnet_env(
      "FLANNEL_NETWORK=10.244.0.0/16\nFLANNEL_SUBNET=10.244.9.1/24\nFLANNEL_MTU=1500\nFLANNEL_IPMASQ=true\n");
  node.del("pod1", netns, config.dump());
  node.check_clean("cbr0");
}

TEST_CASE("dockershim: containers joining the pause container share its scratch file until the pause container's DEL" *
          doctest::test_suite("<hns-v1>")) {
  FlannelNode node;
  node.host_gw_node();
  const json config = node.config("cbr0", {{"delegate", {{"apiVersion", 1}}}});
  node.add("pause1", "none", config.dump());
  node.add("app1", "container:pause1", config.dump());
  CHECK_FALSE(node.has_scratch("app1"));
  node.del("app1", "container:pause1", config.dump());
  CHECK(node.has_scratch("pause1"));
  CHECK(node.endpoint("pause1_cbr0"));
  node.del("pause1", "none", config.dump());
  CHECK_FALSE(node.endpoint("pause1_cbr0"));
  node.check_clean("cbr0");
}

TEST_CASE("a busy node: mixed ADD, DEL, CHECK and STATUS over many pods from 8 workers at once") {
  FlannelNode node;
  node.host_gw_node();
  check_busy_node(node, node.config("cbr0", {{"cniVersion", "1.1.0"}}).dump(), busy_workload("cbr0"));
  CHECK_FALSE(node.has_scratch("busy0"));
}
