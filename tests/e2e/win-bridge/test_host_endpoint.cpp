// The host's bridge endpoint ("<network>_ep", holding the pods' gateway):
// a network win-bridge creates gets one, as flanneld's host-gw node has
// cbr0_ep, so that pods have a way off the node and HNS's own address
// assignment never hands out the gateway; and no pod ever gets its address,
// on any network.

#include <doctest/doctest.h>

#include "configs.hpp"
#include "emulated_node.hpp"
#include "foreign_endpoint.hpp"
#include "hns_choices.hpp"

using namespace wincni;
using namespace wincni::test;
using nlohmann::json;

namespace {

// A node without flanneld: the config names the adapter and a subnet, no
// gateway, and no IPAM plugin (HNS assigns the addresses).
json standalone(const EmulatedNode& node, const std::string& version = "1.0.0") {
  (void)node;
  return json{{"cniVersion", version},
              {"name", "standalone"},
              {"type", "win-bridge"},
              {"master", "Ethernet"},
              {"ipam", {{"subnet", "10.20.0.0/24"}}}};
}

json with_host_local(const EmulatedNode& node, json config) {
  config["ipam"]["type"] = "host-local";
  config["ipam"]["dataDir"] = node.ipam_dir();
  return config;
}

// Whether HNS shows the endpoint attached to the host (its v1 view: attached,
// to no container and no namespace).
bool host_attached(const EmulatedNode& node, const std::string& name) {
  hns::HnsClient client = node_client(node);
  auto endpoint = client.find_hns_endpoint_by_name(name);
  return endpoint && endpoint->state == hns::EndpointState::Attached && endpoint->shared_containers.empty() &&
         endpoint->namespace_id.is_null();
}

std::string status(const EmulatedNode& node, json config) {
  config["cniVersion"] = "1.1.0";
  Run run = node.plugin({"STATUS", "", "", config.dump()});
  return run.ok() ? std::string("ok") : std::to_string(run.code()) + ": " + run.msg();
}

// HNS's pick made the lowest free address, for the cases about one address.
const std::map<std::string, std::string> kLowestPicks{{"WINCNI_EMULATOR_HNS_PICKS", "lowest"}};

// The pod got .1 (the network's gateway) or .2 (the bridge endpoint's).
bool reserved(const json& result) {
  const std::string address = result["ips"][0]["address"];
  return address == "10.20.0.1/24" || address == "10.20.0.2/24";
}

void require_bridge_endpoint(const EmulatedNode& node, const std::string& name, const std::string& address) {
  auto endpoint = node.endpoint(name);
  REQUIRE_MESSAGE(endpoint, name << " is missing");
  CHECK((*endpoint)["IpConfigurations"] == json::array({{{"IpAddress", address}, {"PrefixLength", 24}}}));
  CHECK(host_attached(node, name));
}

}  // namespace

TEST_CASE(
    "HNS-assigned addresses on a network win-bridge creates, without an explicit gateway: .1 HNS's, .2 the bridge "
    "endpoint's" *
    doctest::test_suite("<hns-picks>")) {
  EmulatedNode node;
  const json config = standalone(node);
  CHECK(status(node, config) == "ok");  // creatable

  const std::string ns = node.create_namespace();
  const json result = node.add("pod1", ns, config.dump());
  json expected = json::parse(R"([{"address":"HNS's choice","gateway":"10.20.0.2","interface":0}])");
  expected[0]["address"] = endpoint_address(*node.endpoint("pod1_standalone")) + "/24";
  CHECK(result["ips"] == expected);
  CHECK_FALSE(reserved(result));
  const json network = node.networks().at(0);
  CHECK(network["Type"] == "L2Bridge");
  CHECK(network["Ipams"][0]["Subnets"][0]["Routes"][0]["NextHop"] == "10.20.0.1");
  require_bridge_endpoint(node, "standalone_ep", "10.20.0.2");
  CHECK(status(node, config) == "ok");  // the pods' gateway is held

  // More pods, both APIs: never .1 or .2.
  const json second = node.add("pod2", node.create_namespace(), config.dump());
  CHECK_FALSE(reserved(second));
  const json pause = node.add("pause1", "none", config.dump());
  CHECK_FALSE(reserved(pause));
  CHECK(pause["ips"][0]["gateway"] == "10.20.0.2");
  CHECK(second["ips"][0]["address"] != result["ips"][0]["address"]);
  CHECK(pause["ips"][0]["address"] != result["ips"][0]["address"]);
  CHECK(pause["ips"][0]["address"] != second["ips"][0]["address"]);
  json check = config;
  check["prevResult"] = result;
  CHECK(node.plugin({"CHECK", "pod1", ns, check.dump()}).ok());

  node.del("pod1", ns, config.dump());
  node.del("pause1", "none", config.dump());
  CHECK(node.audit() == "");  // the bridge endpoint is the host's, not a leak
}

TEST_CASE("host-local on a network win-bridge creates: STATUS finds the gateway held, pods start at .3") {
  EmulatedNode node;
  const json config = with_host_local(node, standalone(node));
  const std::string ns = node.create_namespace();
  const json result = node.add("pod1", ns, config.dump());
  CHECK(result["ips"][0]["address"] == "10.20.0.3/24");
  CHECK(result["ips"][0]["gateway"] == "10.20.0.2");
  require_bridge_endpoint(node, "standalone_ep", "10.20.0.2");
  CHECK(status(node, config) == "ok");
  node.del("pod1", ns, config.dump());
  CHECK(node.held_addresses("standalone").empty());
  CHECK(node.audit() == "");
}

TEST_CASE("an explicit gateway: the bridge endpoint of a created network holds it, and HNS may hand out .2" *
          doctest::test_suite("<hns-picks>")) {
  EmulatedNode node;
  json config = standalone(node);
  config["ipam"]["routes"] = json::parse(R"([{"GW":"10.20.0.9"}])");
  // .2 is HNS's lowest free address here; the emulator hands out the lowest
  // when told to (which one Windows picks is not public).
  Run run = node.plugin({"ADD", "pod1", node.create_namespace(), config.dump(), kLowestPicks});
  REQUIRE_MESSAGE(run.ok(), run.out);
  const json result = run.json();
  require_bridge_endpoint(node, "standalone_ep", "10.20.0.9");
  CHECK(result["ips"][0]["gateway"] == "10.20.0.9");
  CHECK(result["ips"][0]["address"] == "10.20.0.2/24");
  CHECK(status(node, config) == "ok");
}

TEST_CASE("the next ADD completes the host side of a network win-bridge created") {
  EmulatedNode node;
  const json config = standalone(node);
  node.add("pod1", node.create_namespace(), config.dump());

  // Detached from the host (an ADD died before attaching it) ...
  hns::HnsClient client = node_client(node);
  const hns::Guid id = client.find_endpoint_by_name("standalone_ep")->id;
  REQUIRE(client.detach_host(id));
  CHECK_FALSE(host_attached(node, "standalone_ep"));
  node.add("pod2", node.create_namespace(), config.dump());
  CHECK(host_attached(node, "standalone_ep"));
  CHECK(client.find_endpoint_by_name("standalone_ep")->id == id);

  // ... or gone: STATUS says so, the next ADD makes it again.
  REQUIRE(node.hnsctl({"endpoint", "delete", "standalone_ep"}).ok());
  CHECK(status(node, config).starts_with("51: no endpoint on network \"standalone\" holds 10.20.0.2"));
  const json third = node.add("pod3", node.create_namespace(), config.dump());
  require_bridge_endpoint(node, "standalone_ep", "10.20.0.2");
  CHECK(third["ips"][0]["address"] != "10.20.0.2/24");
  CHECK(status(node, config) == "ok");
  CHECK(node.audit() == "");
}

TEST_CASE("STATUS: IPAM's error comes before limited connectivity") {
  EmulatedNode node;
  json config = with_host_local(node, standalone(node));
  node.add("pod1", node.create_namespace(), config.dump());
  REQUIRE(node.hnsctl({"endpoint", "delete", "standalone_ep"}).ok());
  CHECK(status(node, config).starts_with("51: "));
  config["ipam"]["rangeStart"] = "10.20.0.9";
  config["ipam"]["rangeEnd"] = "10.20.0.8";
  const std::string refused = status(node, config);
  CHECK_MESSAGE(refused.starts_with("7: invalid range set 0"), refused);
}

TEST_CASE("a network someone else made is not completed; its bridge endpoint's .2 is still never a pod's" *
          doctest::test_suite("<hns-picks>")) {
  EmulatedNode node;
  node.host_gw();
  REQUIRE(node.hnsctl({"endpoint", "delete", "cbr0_ep"}).ok());  // flanneld has not made it (yet)
  json config = standalone(node);
  config["name"] = "cbr0";
  config["ipam"]["subnet"] = "10.244.1.0/24";
  const std::string ns = node.create_namespace();
  // HNS's lowest free address is .2, which flanneld's cbr0_ep will hold
  // (the emulator hands out the lowest when told to).
  Run run = node.plugin({"ADD", "pod1", ns, config.dump(), kLowestPicks});
  CHECK(run.code() == 122);
  CHECK(run.msg() == "HNS gave the pod 10.244.1.2, the pod's own gateway: keep it out of the addresses IPAM hands out");
  CHECK_FALSE(node.endpoint("cbr0_ep"));  // flanneld's to make
  // host-local starts past it.
  const json result = node.add("pod1", ns, with_host_local(node, config).dump());
  CHECK(result["ips"][0]["address"] == "10.244.1.3/24");
  node.del("pod1", ns, with_host_local(node, config).dump());
  CHECK(node.audit() == "");
}

TEST_CASE("an explicit gateway other than .2 on flanneld's node: pods never get cbr0_ep's .2" *
          doctest::test_suite("<hns-picks>")) {
  EmulatedNode node;
  node.host_gw();  // cbr0_ep at .2
  const std::string ns = node.create_namespace();
  json config = bridge_config(node);
  config["ipam"]["gateway"] = "10.244.1.1";
  const json result = node.add("pod1", ns, config.dump());
  CHECK(result["ips"][0]["address"] == "10.244.1.3/24");  // host-local's start moved past .2
  CHECK(result["ips"][0]["gateway"] == "10.244.1.1");
  node.del("pod1", ns, config.dump());

  // The operator's range of just .2: host-local hands it out, win-bridge
  // refuses it and gives it back.
  config["ipam"]["rangeStart"] = "10.244.1.2";
  config["ipam"]["rangeEnd"] = "10.244.1.2";
  Run run = node.plugin({"ADD", "pod1", ns, config.dump()});
  CHECK(run.code() == 122);
  CHECK(run.msg() ==
        "IPAM gave the pod 10.244.1.2, the address of the host's bridge endpoint: keep it out of the "
        "addresses IPAM hands out");
  CHECK(node.held_addresses("cbr0").empty());

  // HNS-assigned, with a gateway of .9: HNS skips .2 itself (cbr0_ep holds it).
  json hns_assigned = standalone(node);
  hns_assigned["name"] = "cbr0";
  hns_assigned.erase("master");
  hns_assigned["ipam"] = {{"subnet", "10.244.1.0/24"}, {"routes", {{{"GW", "10.244.1.9"}}}}};
  Run picked = node.plugin({"ADD", "pod2", ns, hns_assigned.dump(), kLowestPicks});
  REQUIRE_MESSAGE(picked.ok(), picked.out);
  const json assigned = picked.json();
  CHECK(assigned["ips"][0]["address"] == "10.244.1.3/24");
  CHECK(assigned["ips"][0]["gateway"] == "10.244.1.9");
  CHECK(node.audit() == "");
}
