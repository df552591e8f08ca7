// A pod's life through the real win-bridge binary on an emulated node:
// containerd's and dockershim's flows, every result version, CHECK, GC,
// STATUS, reuse and replacement, and DEL that keeps going.

#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include "configs.hpp"
#include "emulated_node.hpp"
#include "endpoint_policies.hpp"
#include "foreign_endpoint.hpp"
#include "hns_choices.hpp"
#include "wincni/cni/version.hpp"

using namespace wincni;
using namespace wincni::test;
using nlohmann::json;

namespace {

std::string with(json config, const json& patch) {
  config.merge_patch(patch);
  return config.dump();
}

std::string check_config(json config, const json& previous) {
  config["prevResult"] = previous;
  return config.dump();
}

}  // namespace

TEST_CASE("containerd: namespace create, ADD, CHECK, DEL, GC, namespace delete" *
          doctest::test_suite("<namespace-state><namespace-listing><hns-picks>")) {
  EmulatedNode node;
  node.host_gw();
  const std::string ns = node.create_namespace();
  const json config = bridge_config(node);

  const json result = node.add("pod1", ns, config.dump());
  auto endpoint = node.endpoint("pod1_cbr0");
  REQUIRE(endpoint);
  json expected = json::parse(R"({"cniVersion":"1.0.0",
      "interfaces":[{"name":"eth0","mac":"HNS's choice","sandbox":"the namespace"},{"name":"pod1_cbr0"}],
      "ips":[{"address":"10.244.1.3/24","gateway":"10.244.1.2","interface":0}],
      "routes":[{"dst":"0.0.0.0/0","gw":"10.244.1.2"}],
      "dns":{"nameservers":["10.96.0.10"],"search":["svc.cluster.local"]}})");
  expected["interfaces"][0]["mac"] = result_mac(*endpoint);
  expected["interfaces"][0]["sandbox"] = ns;
  CHECK(result == expected);

  CHECK((*endpoint)["HostComputeNamespace"] == ns);
  CHECK((*endpoint)["Policies"] == json::parse(R"([
      {"Type":"OutBoundNAT","Settings":{"Exceptions":["10.96.0.0/12","10.244.0.0/16"]}},
      {"Type":"SDNRoute","Settings":{"DestinationPrefix":"10.96.0.0/12","NeedEncap":true}}])"));
  CHECK(node.held_addresses("cbr0") == std::vector<std::string>{"10.244.1.3"});

  CHECK(node.plugin({"CHECK", "pod1", ns, check_config(config, result)}).ok());
  node.del("pod1", ns, config.dump());
  CHECK_FALSE(node.endpoint("pod1_cbr0"));
  Run gc = node.plugin(
      {"GC", "", "", with(config, {{"cniVersion", "1.1.0"}, {"cni.dev/valid-attachments", json::array()}})});
  CHECK_MESSAGE(gc.ok(), gc.out);
  CHECK(node.hnsctl({"namespace", "delete", ns}).ok());
  CHECK(node.audit() == "");
  CHECK(node.held_addresses("cbr0").empty());
  CHECK(node.endpoint("cbr0_ep"));  // flanneld's is left alone
}

// containerd may remove the sandbox's namespace before the CNI DEL reaches
// us (Azure/azure-container-networking issue 1272). Whether the endpoint
// still names the deleted namespace is not public: this case also runs with
// WINCNI_EMULATOR_NAMESPACE_DELETE=leaves-reference.
TEST_CASE("the namespace deleted before DEL: DEL, with CNI_NETNS or without, leaves nothing; the pod's next ADD works" *
          doctest::test_suite("<namespace-state><namespace-listing>")) {
  for (bool with_netns : {true, false}) {
    CAPTURE(with_netns);
    EmulatedNode node;
    node.host_gw();
    const json config = bridge_config(node);
    const std::string ns = node.create_namespace();
    node.add("pod1", ns, config.dump());
    REQUIRE(node.hnsctl({"namespace", "delete", ns}).ok());
    node.del("pod1", with_netns ? ns : "", config.dump());
    CHECK_FALSE(node.endpoint("pod1_cbr0"));
    CHECK(node.held_addresses("cbr0").empty());
    CHECK(node.audit() == "");

    // The same pod again, in a new sandbox, after its old namespace went
    // and no DEL came: the endpoint naming the old namespace is replaced.
    const std::string first = node.create_namespace();
    node.add("pod1", first, config.dump());
    REQUIRE(node.hnsctl({"namespace", "delete", first}).ok());
    const std::string second = node.create_namespace();
    node.add("pod1", second, config.dump());
    CHECK((*node.endpoint("pod1_cbr0"))["HostComputeNamespace"] == second);
    CHECK(node.held_addresses("cbr0").size() == 1);
    node.del("pod1", second, config.dump());
    CHECK(node.audit() == "");
  }
}

TEST_CASE("dockershim: the pause container (none), then containers joining it (container:<id>)" *
          doctest::test_suite("<hns-v1>")) {
  EmulatedNode node;
  node.host_gw();
  json config = bridge_config(node, "0.2.0");
  config.erase("apiVersion");  // HNS v1, as dockershim nodes run it
  const std::string text = config.dump();

  const json pause = node.add("pause1", "none", text);
  CHECK(pause["ip4"]["ip"] == "10.244.1.3/24");
  CHECK(pause["ip4"]["gateway"] == "10.244.1.2");
  const json app = node.add("app1", "container:pause1", text);
  CHECK(app == pause);  // the same endpoint
  Run shown = node.hnsctl({"endpoint", "list"});
  CHECK(shown.out.find("pause1_cbr0") != std::string::npos);

  // A container leaving keeps the pod's endpoint and address; its DEL
  // repeated (a runtime retrying) finds it gone and succeeds.
  node.del("app1", "container:pause1", text);
  CHECK(node.endpoint("pause1_cbr0"));
  CHECK(node.held_addresses("cbr0").size() == 1);
  Run again = node.plugin({"DEL", "app1", "container:pause1", text});
  CHECK_MESSAGE(again.ok(), "a second DEL of a container that left: " << again.out);
  CHECK(node.endpoint("pause1_cbr0"));
  node.del("pause1", "none", text);
  CHECK_FALSE(node.endpoint("pause1_cbr0"));
  CHECK(node.held_addresses("cbr0").empty());
  CHECK(node.audit() == "");
}

TEST_CASE("CHECK names what differs" * doctest::test_suite("<namespace-state><namespace-listing><hns-picks>")) {
  EmulatedNode node;
  node.host_gw();
  const std::string ns = node.create_namespace();
  const std::string other_ns = node.create_namespace();
  const json config = bridge_config(node);
  const json result = node.add("pod1", ns, config.dump());

  json wrong_gateway = result;
  wrong_gateway["ips"][0]["gateway"] = "10.244.1.1";
  Run run = node.plugin({"CHECK", "pod1", ns, check_config(config, wrong_gateway)});
  CHECK(run.code() == 121);
  CHECK(run.msg() == "prevResult's gateway for 10.244.1.3/24 is 10.244.1.1, but endpoint \"pod1_cbr0\" has 10.244.1.2");

  run = node.plugin({"CHECK", "pod1", other_ns, check_config(config, result)});
  CHECK(run.code() == 121);
  CHECK(run.msg() == "endpoint \"pod1_cbr0\" is attached to namespace " + ns + ", not to CNI_NETNS " + other_ns);

  json wrong_mac = result;
  wrong_mac["interfaces"][0]["mac"] = "00:15:5d:00:00:99";
  run = node.plugin({"CHECK", "pod1", ns, check_config(config, wrong_mac)});
  CHECK(run.msg() == "prevResult gives interface \"eth0\" MAC 00:15:5d:00:00:99, but the endpoint has " +
                         result_mac(*node.endpoint("pod1_cbr0")));

  // A result cached before the pod's interface was named eth0, or by the
  // reference plugins: the interface is named after the endpoint.
  json endpoint_named = result;
  endpoint_named["interfaces"] = json::array({{{"name", "pod1_cbr0"}, {"mac", "00:15:5d:00:00:99"}}});
  for (json& ip : endpoint_named["ips"]) ip.erase("interface");
  run = node.plugin({"CHECK", "pod1", ns, check_config(config, endpoint_named)});
  CHECK(run.msg() == "prevResult gives interface \"pod1_cbr0\" MAC 00:15:5d:00:00:99, but the endpoint has " +
                         result_mac(*node.endpoint("pod1_cbr0")));
  endpoint_named["interfaces"][0]["mac"] = result["interfaces"][0]["mac"];
  run = node.plugin({"CHECK", "pod1", ns, check_config(config, endpoint_named)});
  CHECK_MESSAGE(run.ok(), run.out);

  run = node.plugin({"CHECK", "pod1", ns, config.dump()});
  CHECK(run.code() == 7);
  CHECK(run.msg() == "CHECK needs prevResult in the config");

  node.del("pod1", ns, config.dump());
  run = node.plugin({"CHECK", "pod1", ns, check_config(config, result)});
  CHECK(run.code() == 121);
  CHECK(run.msg() == "endpoint \"pod1_cbr0\" does not exist");
}

TEST_CASE("GC removes only this plugin's endpoints of sandboxes that are gone" *
          doctest::test_suite("<namespace-listing>")) {
  EmulatedNode node;
  node.host_gw();
  node.host_gw("10.245.1.0/24", "other");
  const std::string ns_a = node.create_namespace();
  const std::string ns_b = node.create_namespace();
  const json config = bridge_config(node);
  node.add("podA", ns_a, config.dump());
  node.add("podB", ns_b, config.dump());
  create_foreign_endpoint(node, "cbr0", "podC_cbr0");    // looks like ours, is not
  create_foreign_endpoint(node, "other", "podD_other");  // another network

  const json valid = json::array({{{"containerID", "podA"}, {"ifname", "eth0"}}});
  Run gc = node.plugin({"GC", "", "", with(config, {{"cniVersion", "1.1.0"}, {"cni.dev/valid-attachments", valid}})});
  REQUIRE_MESSAGE(gc.ok(), gc.out);
  CHECK(node.endpoint("podA_cbr0"));
  CHECK_FALSE(node.endpoint("podB_cbr0"));
  CHECK(node.endpoint("podC_cbr0"));
  CHECK(node.endpoint("podD_other"));
  CHECK(node.endpoint("cbr0_ep"));
  CHECK(node.held_addresses("cbr0") == std::vector<std::string>{"10.244.1.3"});  // host-local collected podB's
  node.forget("podB", "cbr0");                                                   // as the runtime's GC does
  CHECK(node.audit() == "");
}

TEST_CASE("STATUS: ready, limited (51), not available (50)") {
  EmulatedNode node;
  const std::string config = with(bridge_config(node), {{"cniVersion", "1.1.0"}});
  Run run = node.plugin({"STATUS", "", "", config});
  CHECK(run.code() == 50);
  CHECK(run.msg().starts_with("network \"cbr0\" does not exist (yet)"));

  node.host_gw();
  CHECK(node.plugin({"STATUS", "", "", config}).ok());

  REQUIRE(node.hnsctl({"endpoint", "delete", "cbr0_ep"}).ok());
  run = node.plugin({"STATUS", "", "", config});
  CHECK(run.code() == 51);
  CHECK(run.msg() ==
        "no endpoint on network \"cbr0\" holds 10.244.1.2, the pods' gateway (the host's bridge "
        "endpoint, flanneld's cbr0_ep): pods will not reach beyond the node");

  // Another endpoint holding the gateway serves too: STATUS asks for cbr0_ep
  // by name first, and lists the network's endpoints only when that fails.
  hns::HnsClient client = node_client(node);
  hns::HostComputeEndpoint keeper;
  keeper.name = "gateway-keeper";
  keeper.host_compute_network = client.find_network_by_name("cbr0")->id;
  keeper.ip_configurations = {{*cni::IpAddress::parse("10.244.1.2"), 24}};
  client.attach_host(client.create_endpoint(keeper).id);
  CHECK(node.plugin({"STATUS", "", "", config}).ok());

  run = node.plugin({"STATUS", "", "", config, {{"WINCNI_EMULATOR_FAULTS", "GetVersion:1+:fail=0x80004005"}}});
  CHECK(run.code() == 50);
  CHECK(run.msg().starts_with("HNS is not reachable: "));
}

TEST_CASE("STATUS: a network of another type is not one win-bridge can use") {
  EmulatedNode node;
  REQUIRE(node.hnsctl({"node", "vxlan", "--subnet", "10.244.1.0/24", "--name", "cbr0"}).ok());
  Run run = node.plugin({"STATUS", "", "", with(bridge_config(node), {{"cniVersion", "1.1.0"}})});
  CHECK(run.code() == 50);
  CHECK(run.msg() == "network \"cbr0\" is of type Overlay; win-bridge needs L2Bridge or L2Tunnel");
  const std::string ns = node.create_namespace();
  run = node.plugin({"ADD", "pod1", ns, bridge_config(node).dump()});
  CHECK(run.code() == 120);
  CHECK(node.held_addresses("cbr0").empty());
}

TEST_CASE("ADD again: the same endpoint is reused; a changed config replaces it") {
  EmulatedNode node;
  node.host_gw();
  const std::string ns = node.create_namespace();
  json config = bridge_config(node);
  const json first = node.add("pod1", ns, config.dump());
  const std::string id = (*node.endpoint("pod1_cbr0"))["ID"];
  CHECK(node.add("pod1", ns, config.dump()) == first);
  CHECK((*node.endpoint("pod1_cbr0"))["ID"] == id);

  config["runtimeConfig"] = {{"portMappings", {{{"hostPort", 8080}, {"containerPort", 80}, {"protocol", "tcp"}}}}};
  const json mapped = node.add("pod1", ns, config.dump());
  const json endpoint = *node.endpoint("pod1_cbr0");
  const json policies = sent_policies(endpoint);
  CHECK(policies.size() == 3);
  CHECK(policies[2]["Type"] == "PortMapping");
  CHECK(node.held_addresses("cbr0").size() == 1);
  // HNS adds a route of its own for a local-routed mapping: the endpoint
  // still holds what the config asks for, and is reused.
  CHECK(endpoint["Policies"].size() > policies.size());
  CHECK(node.add("pod1", ns, config.dump()) == mapped);
  CHECK((*node.endpoint("pod1_cbr0"))["ID"] == endpoint["ID"]);
  CHECK(node.endpoints().size() == 2);  // and cbr0_ep
  node.del("pod1", ns, config.dump());
  CHECK(node.audit() == "");
}

TEST_CASE("an endpoint of the pod's name on another network that win-bridge did not make is left alone, named") {
  EmulatedNode node;
  node.host_gw();
  node.host_gw("10.245.1.0/24", "other");
  const hns::Guid foreign = create_foreign_endpoint(node, "other", "pod1_cbr0");
  const std::string ns = node.create_namespace();
  Run run = node.plugin({"ADD", "pod1", ns, bridge_config(node).dump()});
  CHECK(run.code() == 123);
  CHECK(run.msg().find(foreign.str()) != std::string::npos);
  CHECK(node_client(node).find_endpoint(foreign));
  CHECK(node.endpoints().size() == 3);  // cbr0_ep, other_ep, the foreign pod1_cbr0
  CHECK(node.held_addresses("cbr0").empty());
}

TEST_CASE("DEL keeps going: IPAM failing does not keep the endpoint, and the error is reported") {
  EmulatedNode node;
  node.host_gw();
  const std::string ns = node.create_namespace();
  const json config = bridge_config(node);
  node.add("pod1", ns, config.dump());
  json broken = config;
  broken["ipam"]["type"] = "no-such-ipam";
  Run run = node.plugin({"DEL", "pod1", ns, broken.dump()});
  CHECK(run.code() == 7);
  CHECK(run.msg().find("no-such-ipam") != std::string::npos);
  CHECK_FALSE(node.endpoint("pod1_cbr0"));
  // A second DEL with the right config releases the address; DEL is idempotent.
  node.del("pod1", ns, config.dump());
  node.del("pod1", ns, config.dump());
  node.del("pod1", "", config.dump());  // no CNI_NETNS
  CHECK(node.held_addresses("cbr0").empty());
  CHECK(node.audit() == "");
}

TEST_CASE("ADD names a missing network before an IPAM plugin it cannot find, and that plugin once it looks") {
  // IPAM's process starts while the network is looked up (cni::EarlyAdd);
  // what starting it met is reported only where IPAM is asked.
  EmulatedNode node;
  const std::string ns = node.create_namespace();
  json config = bridge_config(node);
  config["networkWaitSeconds"] = 0.1;
  config["ipam"]["type"] = "no-such-ipam";
  Run run = node.plugin({"ADD", "pod1", ns, config.dump()});
  CHECK(run.code() == 11);
  CHECK_MESSAGE(run.msg().starts_with("network \"cbr0\" not found after waiting 100 ms"), run.msg());
  node.host_gw();
  run = node.plugin({"ADD", "pod1", ns, config.dump()});
  CHECK(run.code() == 7);
  CHECK_MESSAGE(run.msg().starts_with("failed to find plugin \"no-such-ipam\""), run.msg());
  CHECK_FALSE(node.endpoint("pod1_cbr0"));
  CHECK(node.audit() == "");
}

TEST_CASE("a missing network is waited for, a bounded time, then code 11") {
  EmulatedNode node;
  const std::string ns = node.create_namespace();
  json config = bridge_config(node);
  config["networkWaitSeconds"] = 0.3;
  const auto start = std::chrono::steady_clock::now();
  Run run = node.plugin({"ADD", "pod1", ns, config.dump()});
  CHECK(std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(300));
  CHECK(run.code() == 11);
  CHECK(run.msg().starts_with("network \"cbr0\" not found after waiting 300 ms: check that whatever creates it"));
  CHECK(node.held_addresses("cbr0").empty());

  // flanneld creating it while ADD waits.
  config["networkWaitSeconds"] = 20;
  // The thread only runs hnsctl: no doctest macro off the main thread
  // (emulated_node.hpp says why).
  Run created;
  std::thread flanneld([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    created = node.hnsctl({"node", "host-gw", "--subnet", "10.244.1.0/24", "--name", "cbr0"});
  });
  run = node.plugin({"ADD", "pod1", ns, config.dump()});
  flanneld.join();
  REQUIRE_MESSAGE(created.ok(), created.out << created.err);
  CHECK_MESSAGE(run.ok(), run.out);
  CHECK(node.audit() == "");
}
