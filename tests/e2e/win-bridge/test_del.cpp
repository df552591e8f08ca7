// DEL in the situations a runtime creates: no CNI_NETNS while the endpoint
// still exists (a sandbox whose namespace is already gone), and a config
// that does not parse in parts DEL does not need.

#include <doctest/doctest.h>

#include <fstream>

#include "configs.hpp"
#include "emulated_node.hpp"
#include "foreign_endpoint.hpp"

using namespace wincni;
using namespace wincni::test;
using nlohmann::json;

TEST_CASE("DEL without CNI_NETNS while the endpoint exists: containerd's endpoint is detached and deleted") {
  EmulatedNode node;
  node.host_gw();
  const std::string config = bridge_config(node).dump();
  const std::string ns = node.create_namespace();
  node.add("pod1", ns, config);
  node.del("pod1", "", config);
  CHECK_FALSE(node.endpoint("pod1_cbr0"));
  CHECK(node.held_addresses("cbr0").empty());
  auto left = node_client(node).find_namespace(*hns::Guid::parse(ns));
  REQUIRE(left);
  CHECK(left->endpoint_ids().empty());  // the namespace no longer lists it
  CHECK(node.audit() == "");
}

TEST_CASE("DEL without CNI_NETNS while the endpoint exists: dockershim's endpoint is detached and deleted") {
  EmulatedNode node;
  node.host_gw();
  json config = bridge_config(node, "0.2.0");
  config.erase("apiVersion");
  node.add("pause1", "none", config.dump());
  // No apiVersion and no CNI_NETNS: this host has HCN, so DEL looks there
  // first; the container attachment only HNS v1's view shows is undone
  // before the endpoint goes, whichever API made it.
  const std::string journal = node.path("journal");
  Run run = node.plugin({"DEL", "pause1", "", config.dump(), {{"WINCNI_EMULATOR_JOURNAL", journal}}});
  REQUIRE_MESSAGE(run.ok(), run.out);
  CHECK_FALSE(node.endpoint("pause1_cbr0"));
  CHECK(node.held_addresses("cbr0").empty());
  CHECK(node.audit() == "");
  std::vector<std::string> steps;
  std::ifstream lines(journal);
  for (std::string line; std::getline(lines, line);) {
    const json entry = json::parse(line);
    const std::string path = entry["input"].value("Path", "");
    if (path.ends_with("/detach")) steps.push_back("detach");
    if (entry["op"] == "HcnDeleteEndpoint" || entry["input"].value("Method", "") == "DELETE") steps.push_back("delete");
  }
  CHECK(steps == std::vector<std::string>{"detach", "delete"});
}

TEST_CASE("DEL with a config that does not parse in parts it does not need still tears down") {
  EmulatedNode node;
  node.host_gw();
  const json config = bridge_config(node);
  const std::string ns = node.create_namespace();
  for (const json& patch : {json::parse(R"({"runtimeConfig":{"portMappings":[{"hostPort":80,"containerPort":80,"protocol":"sctp"}]}})"),
                            json::parse(R"({"apiVersion":"two"})"),
                            json::parse(R"({"ipMasqNetwork":"not a prefix","optionalFlags":{"loopbackDSR":"yes"}})")}) {
    CAPTURE(patch);
    node.add("pod1", ns, config.dump());
    json broken = config;
    broken.merge_patch(patch);
    // ADD refuses it ...
    CHECK(node.plugin({"ADD", "pod2", ns, broken.dump()}).code() == 7);
    // ... DEL does what it can.
    Run run = node.plugin({"DEL", "pod1", ns, broken.dump()});
    CHECK_MESSAGE(run.ok(), run.out);
    CHECK_FALSE(node.endpoint("pod1_cbr0"));
    CHECK(node.held_addresses("cbr0").empty());
  }
  CHECK(node.audit() == "");
}

TEST_CASE("DEL with a config that is not JSON at all fails with the decoding error and touches nothing") {
  EmulatedNode node;
  node.host_gw();
  const std::string config = bridge_config(node).dump();
  const std::string ns = node.create_namespace();
  node.add("pod1", ns, config);
  Run run = node.plugin({"DEL", "pod1", ns, "{\"name\": \"cbr0\", "});
  CHECK(run.code() == 6);
  CHECK(node.endpoint("pod1_cbr0"));  // nothing says which network, or which IPAM to ask
  node.del("pod1", ns, config);
  CHECK(node.audit() == "");
  CHECK(node.held_addresses("cbr0").empty());
}
