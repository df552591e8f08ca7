// CHECK's answers beyond the basic ones in test_lifecycle.cpp: the network
// gone or of the wrong type, the endpoint on another network, addresses that
// differ from prevResult, IPAM's own CHECK failing, and dockershim's
// endpoints (HNS v1), whose attachments are containers.

#include <doctest/doctest.h>

#include <filesystem>

#include "configs.hpp"
#include "emulated_node.hpp"
#include "foreign_endpoint.hpp"
#include "shared_containers.hpp"

using namespace wincni;
using namespace wincni::test;
using nlohmann::json;

namespace {

Run check(const EmulatedNode& node, const std::string& container, const std::string& netns, json config,
          const json& previous) {
  config["prevResult"] = previous;
  return node.plugin({"CHECK", container, netns, config.dump()});
}

std::string id_of_network(const EmulatedNode& node, const std::string& name) {
  return node_client(node).find_network_by_name(name)->id.str();
}

// pod1, added on flanneld's host-gw node.
struct AddedPod {
  EmulatedNode node;
  json config;
  std::string ns;
  json result;

  AddedPod() {
    node.host_gw();
    config = bridge_config(node);
    ns = node.create_namespace();
    result = node.add("pod1", ns, config.dump());
  }
};

const char* kPrevious = R"({"cniVersion":"1.0.0","interfaces":[{"name":"pod1_cbr0"}],
    "ips":[{"address":"10.244.1.3/24","gateway":"10.244.1.2","interface":0}]})";

}  // namespace

TEST_CASE("CHECK: the network gone, or of a type win-bridge does not use" *
          doctest::test_suite("<namespace-state><namespace-listing>")) {
  EmulatedNode node;
  const json config = bridge_config(node);
  const std::string ns = node.create_namespace();
  Run run = check(node, "pod1", ns, config, json::parse(kPrevious));
  CHECK(run.code() == 121);
  CHECK(run.msg() == "network \"cbr0\" does not exist");

  REQUIRE(node.hnsctl({"node", "vxlan", "--subnet", "10.244.1.0/24", "--name", "cbr0"}).ok());
  run = check(node, "pod1", ns, config, json::parse(kPrevious));
  CHECK(run.code() == 120);
  CHECK(run.msg() == "network \"cbr0\" is of type Overlay; win-bridge needs L2Bridge or L2Tunnel");
}

TEST_CASE("CHECK: the endpoint of the pod's name sits on another network" *
          doctest::test_suite("<namespace-state><namespace-listing>")) {
  EmulatedNode node;
  node.host_gw();
  node.host_gw("10.245.1.0/24", "other");
  create_foreign_endpoint(node, "other", "pod1_cbr0");
  Run run = check(node, "pod1", node.create_namespace(), bridge_config(node), json::parse(kPrevious));
  CHECK(run.code() == 121);
  CHECK(run.msg() == "endpoint \"pod1_cbr0\" is on network " + id_of_network(node, "other") + ", not on \"cbr0\" (" +
                         id_of_network(node, "cbr0") + ")");
}

TEST_CASE_FIXTURE(AddedPod, "CHECK: addresses that differ from prevResult, either way" *
                                doctest::test_suite("<namespace-state><namespace-listing>")) {
  json other_address = result;
  other_address["ips"][0]["address"] = "10.244.1.9/24";
  Run run = check(node, "pod1", ns, config, other_address);
  CHECK(run.code() == 121);
  CHECK(run.msg() == "prevResult lists 10.244.1.9/24, but endpoint \"pod1_cbr0\" holds 10.244.1.3/24");

  json other_length = result;
  other_length["ips"][0]["address"] = "10.244.1.3/16";
  run = check(node, "pod1", ns, config, other_length);
  CHECK(run.msg() == "prevResult lists 10.244.1.3/16, but endpoint \"pod1_cbr0\" holds 10.244.1.3/24");

  json none = result;
  none["ips"] = json::array();
  none.erase("routes");
  run = check(node, "pod1", ns, config, none);
  CHECK(run.code() == 121);
  CHECK(run.msg() == "endpoint \"pod1_cbr0\" holds 10.244.1.3/24, which prevResult does not list");
}

TEST_CASE_FIXTURE(AddedPod, "CHECK: IPAM's own CHECK failing is CHECK failing" *
                                doctest::test_suite("<namespace-state><namespace-listing>")) {
  REQUIRE(check(node, "pod1", ns, config, result).ok());
  // host-local lost the reservation: HNS still matches, IPAM does not.
  REQUIRE(std::filesystem::remove(std::filesystem::path(node.ipam_dir()) / "cbr0" / "10.244.1.3"));
  Run run = check(node, "pod1", ns, config, result);
  CHECK(run.code() == 112);  // host-local's answer, passed on
  CHECK(run.msg() == "host-local: Failed to find address added by container pod1");
}

TEST_CASE_FIXTURE(AddedPod, "CHECK: HNS's mismatch comes before IPAM's error" *
                                doctest::test_suite("<namespace-state><namespace-listing>")) {
  REQUIRE(std::filesystem::remove(std::filesystem::path(node.ipam_dir()) / "cbr0" / "10.244.1.3"));
  json other = result;
  other["ips"][0]["address"] = "10.244.1.4/24";
  Run run = check(node, "pod1", ns, config, other);
  CHECK(run.code() == 121);
  CHECK(run.msg() == "prevResult lists 10.244.1.4/24, but endpoint \"pod1_cbr0\" holds 10.244.1.3/24");
}

TEST_CASE("dockershim (HNS v1): the endpoint is attached to each container, and CHECK asks for this container" *
          doctest::test_suite("<hns-v1><namespace-state><namespace-listing>")) {
  EmulatedNode node;
  node.host_gw();
  json config = bridge_config(node);
  config.erase("apiVersion");
  const json pause = node.add("pause1", "none", config.dump());
  CHECK(shared_containers(node, "pause1_cbr0") == std::vector<std::string>{"pause1"});
  CHECK(node.add("app1", "container:pause1", config.dump()) == pause);
  CHECK(shared_containers(node, "pause1_cbr0") == std::vector<std::string>{"pause1", "app1"});
  // An HCN namespace it has none.
  CHECK((*node.endpoint("pause1_cbr0"))["HostComputeNamespace"] == hns::Guid{}.str());

  CHECK(check(node, "pause1", "none", config, pause).ok());
  // A joining container holds no IPAM allocation of its own (host-local
  // knows the pod's address by the pause container): only HNS is checked.
  Run joined = check(node, "app1", "container:pause1", config, pause);
  CHECK_MESSAGE(joined.ok(), joined.out);
  Run run = check(node, "app2", "container:pause1", config, pause);
  CHECK(run.code() == 121);
  CHECK(run.msg() == "endpoint \"pause1_cbr0\" is not attached to container app2");

  node.del("app1", "container:pause1", config.dump());
  CHECK(shared_containers(node, "pause1_cbr0") == std::vector<std::string>{"pause1"});
  run = check(node, "app1", "container:pause1", config, pause);
  CHECK(run.msg() == "endpoint \"pause1_cbr0\" is not attached to container app1");
  node.del("pause1", "none", config.dump());
  CHECK(node.audit() == "");
}
