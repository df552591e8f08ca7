// DEL in the situations a runtime creates: no CNI_NETNS while the endpoint
// still exists (containerd sends none when the namespace is already gone),
// whichever API made the endpoint, and a config DEL cannot read whole.

#include <doctest/doctest.h>

#include "emulator_journal.hpp"
#include "flavor_cases.hpp"
#include "foreign_endpoint.hpp"

using namespace wincni;
using namespace wincni::test;
using nlohmann::json;

namespace {

// DEL of `sandbox` without CNI_NETNS, as containerd sends it once the
// namespace is gone: it succeeds, and the endpoint is detached, then deleted.
void del_without_netns(const EmulatedNode& node, const std::string& sandbox, const std::string& config) {
  const std::string journal = node.path("journal");
  Run run = node.plugin({"DEL", sandbox, "", config, {{"WINCNI_EMULATOR_JOURNAL", journal}}});
  REQUIRE_MESSAGE(run.ok(), run.out);
  CHECK(teardown_steps(journal) == std::vector<std::string>{"detach", "delete"});
}

}  // namespace

TEST_CASE_TEMPLATE("DEL without CNI_NETNS removes an HCN endpoint: detached from its namespace, then deleted", Case,
                   WINCNI_FLAVOR_CASES) {
  INFO(Case::kName);
  CaseNode<Case> node;
  const std::string config = node.config().dump();
  const std::string ns = node.create_namespace();
  node.add("pod1", ns, config);
  del_without_netns(node, "pod1", config);
  auto left = node_client(node).find_namespace(*hns::Guid::parse(ns));
  REQUIRE(left);
  CHECK(left->endpoint_ids().empty());
  CHECK(node.held_addresses(Case::kNetwork).empty());
  CHECK(node.audit() == "");
}

TEST_CASE_TEMPLATE("DEL without CNI_NETNS removes an HNS v1 endpoint: its container detached, then deleted", Case,
                   WINCNI_FLAVOR_CASES) {
  INFO(Case::kName);
  CaseNode<Case> node;
  // No apiVersion: the ADD under dockershim made it with HNS v1; the DEL
  // without CNI_NETNS looks through HCN first on this host.
  const std::string config = node.config("0.2.0").dump();
  node.add("pause1", "none", config);
  del_without_netns(node, "pause1", config);
  CHECK_FALSE(node.endpoint("pause1_" + std::string(Case::kNetwork)));
  CHECK(node.held_addresses(Case::kNetwork).empty());
  CHECK(node.audit() == "");
}

TEST_CASE_TEMPLATE("DEL with a config that does not parse in parts DEL does not need still tears down", Case,
                   WINCNI_FLAVOR_CASES) {
  INFO(Case::kName);
  CaseNode<Case> node;
  const json config = node.config();
  const std::string ns = node.create_namespace();
  const std::string name = "pod1_" + std::string(Case::kNetwork);
  for (const json& patch :
       {json::parse(R"({"runtimeConfig":{"portMappings":[{"hostPort":80,"containerPort":80,"protocol":"sctp"}]}})"),
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
    CHECK_FALSE(node.endpoint(name));
    CHECK(node.held_addresses(Case::kNetwork).empty());
  }
  CHECK(node.audit() == "");
}

TEST_CASE_TEMPLATE("DEL with a config that is not JSON at all fails with the decoding error and touches nothing", Case,
                   WINCNI_FLAVOR_CASES) {
  INFO(Case::kName);
  CaseNode<Case> node;
  const std::string config = node.config().dump();
  const std::string ns = node.create_namespace();
  node.add("pod1", ns, config);
  Run run = node.plugin({"DEL", "pod1", ns, "{\"name\": \"" + std::string(Case::kNetwork) + "\", "});
  CHECK(run.code() == 6);
  CHECK(node.endpoint("pod1_" + std::string(Case::kNetwork)));  // nothing says which network, or which IPAM to ask
  node.del("pod1", ns, config);
  CHECK(node.audit() == "");
  CHECK(node.held_addresses(Case::kNetwork).empty());
}

// security review, finding 7: a config named "ep" and a container named
// "cbr0" make the endpoint name cbr0_ep, flanneld's host endpoint on cbr0.
TEST_CASE("DEL leaves an endpoint of the pod's name alone when it is on another network and not the plugin's") {
  CaseNode<BridgeCase> node;
  REQUIRE(node.endpoint("cbr0_ep"));
  json config = node.config();
  config["name"] = "ep";
  node.del("cbr0", "", config.dump());
  CHECK(node.endpoint("cbr0_ep"));
}

TEST_CASE("DEL removes an endpoint of the pod's name on the config's network that the plugin did not mark") {
  // As the reference win-bridge leaves them on a node upgraded to wincni.
  CaseNode<BridgeCase> node;
  const std::string config = node.config().dump();
  const hns::Guid unmarked = create_foreign_endpoint(node, "cbr0", "pod2_cbr0");
  node.del("pod2", "", config);
  CHECK_FALSE(node_client(node).find_endpoint(unmarked));
  CHECK(node.audit() == "");
}
