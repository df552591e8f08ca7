// A pod's life through the engine, for every flavor: containerd's and
// dockershim's flows, CHECK, GC, STATUS, the result in every CNI version,
// and how the HNS API follows what the runtime sends.

#include <doctest/doctest.h>

#include "flavor_cases.hpp"
#include "wincni/cni/version.hpp"

using namespace wincni;
using namespace wincni::test;
using nlohmann::json;

namespace {

std::string with_prev_result(json config, const json& result) {
  config["prevResult"] = result;
  return config.dump();
}

std::string with(json config, const json& patch) {
  config.merge_patch(patch);
  return config.dump();
}

std::string endpoint_name(const std::string& sandbox, const char* network) { return sandbox + "_" + network; }

}  // namespace

TEST_CASE_TEMPLATE("containerd: ADD, CHECK, DEL, GC and STATUS", Case, WINCNI_FLAVOR_CASES) {
  INFO(Case::kName);
  CaseNode<Case> node;
  const std::string ns = node.create_namespace();
  const json config = node.config();
  const json result = node.add("pod1", ns, config.dump());
  CHECK(result["ips"][0]["address"] == Case::kFirstAddress);
  // containerd files the pod's IPs under the interface it named (go-cni's
  // eth0); the endpoint's name follows as a host interface.
  CHECK(result["interfaces"][0]["name"] == "eth0");
  CHECK(result["interfaces"][0]["sandbox"] == ns);
  CHECK(result["ips"][0]["interface"] == 0);
  CHECK(result["interfaces"][1] == json{{"name", endpoint_name("pod1", Case::kNetwork)}});
  auto endpoint = node.endpoint(endpoint_name("pod1", Case::kNetwork));
  REQUIRE(endpoint);
  CHECK((*endpoint)["HostComputeNamespace"] == ns);
  CHECK(node.held_addresses(Case::kNetwork).size() == 1);

  Run check = node.plugin({"CHECK", "pod1", ns, with_prev_result(config, result)});
  CHECK_MESSAGE(check.ok(), check.out);
  Run status = node.plugin({"STATUS", "", "", with(config, {{"cniVersion", "1.1.0"}})});
  CHECK_MESSAGE(status.ok(), status.out);

  node.del("pod1", ns, config.dump());
  node.del("pod1", ns, config.dump());  // idempotent
  CHECK_FALSE(node.endpoint(endpoint_name("pod1", Case::kNetwork)));
  CHECK(node.held_addresses(Case::kNetwork).empty());
  CHECK(node.audit() == "");
}

// containerd files a pod's IPs under the interface it named (go-cni's
// eth0; docs/reference/cni-protocol.md §1a), in every result version that
// has interfaces; before 0.3.0 results have none, and runtimes read ip4.
TEST_CASE_TEMPLATE("the result points every address at CNI_IFNAME, in every version", Case, WINCNI_FLAVOR_CASES) {
  INFO(Case::kName);
  CaseNode<Case> node;
  for (const std::string version : {"0.1.0", "0.2.0", "0.3.0", "0.3.1", "0.4.0", "1.0.0", "1.1.0"}) {
    CAPTURE(version);
    const std::string config = node.config(version).dump();
    const std::string ns = node.create_namespace();
    const Run run = node.plugin({"ADD", "pod1", ns, config, {}, "eth3"});
    REQUIRE_MESSAGE(run.ok(), run.out << run.err);
    const json result = run.json();
    if (version == "0.1.0" || version == "0.2.0") {
      CHECK_FALSE(result.contains("interfaces"));
      CHECK(result["ip4"]["ip"].is_string());
    } else {
      REQUIRE(result["interfaces"].size() == 2);
      CHECK(result["interfaces"][0]["name"] == "eth3");
      CHECK(result["interfaces"][0]["sandbox"] == ns);
      CHECK(result["interfaces"][1]["name"] == endpoint_name("pod1", Case::kNetwork));
      for (const json& ip : result["ips"]) CHECK(ip["interface"] == 0);
    }
    const Run del = node.plugin({"DEL", "pod1", ns, config, {}, "eth3"});
    REQUIRE_MESSAGE(del.ok(), del.out << del.err);
  }
  CHECK(node.audit() == "");
}

TEST_CASE_TEMPLATE("dockershim: the pause container's endpoint, a container joining it, and both leaving", Case,
                   WINCNI_FLAVOR_CASES) {
  INFO(Case::kName);
  CaseNode<Case> node;
  const std::string config = node.config("0.3.1").dump();
  const json pause = node.add("pause1", "none", config);
  const json app = node.add("app1", "container:pause1", config);
  CHECK(app == pause);
  auto endpoint = node.endpoint(endpoint_name("pause1", Case::kNetwork));
  REQUIRE(endpoint);
  node.del("app1", "container:pause1", config);
  CHECK(node.endpoint(endpoint_name("pause1", Case::kNetwork)));
  node.del("pause1", "none", config);
  CHECK_FALSE(node.endpoint(endpoint_name("pause1", Case::kNetwork)));
  CHECK(node.held_addresses(Case::kNetwork).empty());
  CHECK(node.audit() == "");
}

TEST_CASE_TEMPLATE("the HNS API follows CNI_NETNS; an apiVersion that contradicts it is code 4", Case,
                   WINCNI_FLAVOR_CASES) {
  INFO(Case::kName);
  CaseNode<Case> node;
  const std::string ns = node.create_namespace();
  json v1 = node.config();
  v1["apiVersion"] = 1;
  Run run = node.plugin({"ADD", "pod1", ns, v1.dump()});
  CHECK(run.code() == 4);
  CHECK(run.msg().find("set \"apiVersion\": 2") != std::string::npos);
  json v2 = node.config();
  v2["apiVersion"] = 2;
  CHECK(node.plugin({"ADD", "pod1", "none", v2.dump()}).code() == 4);
  CHECK(node.plugin({"ADD", "pod1", "/var/run/netns/x", node.config().dump()}).code() == 4);
  CHECK(node.held_addresses(Case::kNetwork).empty());
  CHECK(node.audit() == "");
}

TEST_CASE_TEMPLATE("the result in every CNI version, and CHECK against it", Case, WINCNI_FLAVOR_CASES) {
  INFO(Case::kName);
  CaseNode<Case> node;
  const std::string ns = node.create_namespace();
  for (const std::string& version : cni::known_versions()) {
    CAPTURE(version);
    const json config = node.config(version);
    const json printed = node.add("pod-" + version, ns, config.dump());
    CHECK(printed["cniVersion"] == version);
    if (cni::version_at_least(version, "0.4.0")) {
      Run check = node.plugin({"CHECK", "pod-" + version, ns, with_prev_result(config, printed)});
      CHECK_MESSAGE(check.ok(), check.out);
    }
    node.del("pod-" + version, ns, config.dump());
  }
  CHECK(node.held_addresses(Case::kNetwork).empty());
  CHECK(node.audit() == "");
}

TEST_CASE_TEMPLATE("GC removes only the engine's endpoints of sandboxes that are gone", Case, WINCNI_FLAVOR_CASES) {
  INFO(Case::kName);
  CaseNode<Case> node;
  const json config = node.config("1.1.0");
  const std::string ns1 = node.create_namespace();
  const std::string ns2 = node.create_namespace();
  node.add("keep", ns1, config.dump());
  node.add("gone", ns2, config.dump());
  create_foreign_endpoint(node, Case::kNetwork, "foreign_" + std::string(Case::kNetwork));
  json gc = config;
  gc["cni.dev/valid-attachments"] = {{{"containerID", "keep"}, {"ifname", "eth0"}}};
  Run run = node.plugin({"GC", "", "", gc.dump()});
  CHECK_MESSAGE(run.ok(), run.out);
  CHECK(node.endpoint(endpoint_name("keep", Case::kNetwork)));
  CHECK_FALSE(node.endpoint(endpoint_name("gone", Case::kNetwork)));
  CHECK(node.endpoint("foreign_" + std::string(Case::kNetwork)));
  CHECK(node.held_addresses(Case::kNetwork).size() == 1);
  node.del("keep", ns1, config.dump());
}

TEST_CASE_TEMPLATE("a missing network the config cannot create is waited for, then code 11 saying what to check", Case,
                   WINCNI_FLAVOR_CASES) {
  INFO(Case::kName);
  CaseNode<Case> node;
  json config = node.config();
  config["name"] = "not-there";
  config["networkWaitSeconds"] = 0.3;
  const std::string ns = node.create_namespace();
  Run run = node.plugin({"ADD", "pod1", ns, config.dump()});
  CHECK(run.code() == 11);
  CHECK(run.msg().find("network \"not-there\" not found after waiting 300 ms") != std::string::npos);
  // The networks HNS has end the message, so a misspelt name shows beside them.
  const std::string listed = "; HNS has \"" + std::string(Case::kNetwork) + "\" (";
  CHECK_MESSAGE(run.msg().find(listed) != std::string::npos, run.msg());
  Run status = node.plugin({"STATUS", "", "", with(config, {{"cniVersion", "1.1.0"}})});
  CHECK(status.code() == 50);
  CHECK_MESSAGE(status.msg().find(listed) != std::string::npos, status.msg());
  CHECK(node.audit() == "");
}

TEST_CASE("a flavor that creates no networks waits for one, whatever the config says, and says what to check") {
  const WaitingFlavor flavor;
  EngineNode node(flavor);
  json config = DefaultRulesCase::config(node);
  config["master"] = "Ethernet";  // would be a blueprint for a flavor that creates networks
  config["networkWaitSeconds"] = 0.2;
  Run run = node.plugin({"ADD", "pod1", node.create_namespace(), config.dump()});
  CHECK(run.code() == 11);
  CHECK(run.msg() ==
        "network \"testnet\" not found after waiting 200 ms: check that flanneld runs on this node and has "
        "created it, with the name the config's \"name\" gives; HNS has no network");
  CHECK(node.networks().empty());
  Run status = node.plugin({"STATUS", "", "", with(config, {{"cniVersion", "1.1.0"}})});
  CHECK(status.code() == 50);
  CHECK(node.networks().empty());
  CHECK(node.audit() == "");
}

TEST_CASE_TEMPLATE("a container cannot join a sandbox that has no endpoint", Case, WINCNI_FLAVOR_CASES) {
  INFO(Case::kName);
  CaseNode<Case> node;
  Run run = node.plugin({"ADD", "app1", "container:pause9", node.config("0.2.0").dump()});
  CHECK(run.code() == 3);
  CHECK(run.msg().find("pause9_" + std::string(Case::kNetwork)) != std::string::npos);
  CHECK(node.audit() == "");
}
