// dockershim (HNS v1): the pod's endpoint reaches each container through
// HCS, hot-added to the running container's compute system, as the
// reference plugins do it (docs/engine.md, "dockershim containers"). The
// emulator's HCS knows only the containers the runtime started (hnsctl
// container start), so a container that is not running is an error path
// these tests can take.

#include <doctest/doctest.h>

#include "configs.hpp"
#include "emulated_node.hpp"
#include "emulator_journal.hpp"
#include "foreign_endpoint.hpp"
#include "shared_containers.hpp"

using namespace wincni;
using namespace wincni::test;
using nlohmann::json;

namespace {

std::string dockershim_config(const EmulatedNode& node) {
  json config = bridge_config(node, "0.2.0");
  config.erase("apiVersion");  // HNS v1, as dockershim nodes run it
  return config.dump();
}

}  // namespace

TEST_CASE("dockershim ADD hot-adds the endpoint to the running container through HCS" *
          doctest::test_suite("<hns-v1>")) {
  EmulatedNode node;
  node.host_gw();
  const std::string config = dockershim_config(node);
  const std::string journal = node.path("journal");
  Run run = node.plugin({"ADD", "pause1", "none", config, {{"WINCNI_EMULATOR_JOURNAL", journal}}});
  REQUIRE_MESSAGE(run.ok(), run.out);
  int hot_adds = 0;
  for (const json& entry : journal_entries(journal)) {
    if (entry["op"] == "HcsModifyComputeSystem" && entry["input"].dump().find("\"Add\"") != std::string::npos) {
      ++hot_adds;
    }
    CHECK(entry["input"].dump().find("/attach") == std::string::npos);  // not HNS's own attach
  }
  CHECK(hot_adds == 1);
  CHECK(shared_containers(node, "pause1_cbr0") == std::vector<std::string>{"pause1"});
  auto properties = node_client(node).compute_system_properties("pause1");
  REQUIRE(properties);
  CHECK((*properties)["State"] == "Running");
  node.del("pause1", "none", config);
  CHECK_FALSE(node.endpoint("pause1_cbr0"));
  CHECK(node.audit() == "");
}

TEST_CASE("a pod's container that is not running: ADD fails, names HCS's answer, and leaves nothing") {
  EmulatedNode node;
  node.host_gw();
  node.starts_containers = false;
  const std::string config = dockershim_config(node);
  Run run = node.plugin({"ADD", "pause1", "none", config});
  CHECK(run.exit_code == 1);
  CHECK(run.code() == 100);
  CHECK_MESSAGE(run.msg().find("HCS_E_SYSTEM_NOT_FOUND 0xC037010E") != std::string::npos, run.msg());
  CHECK_MESSAGE(run.msg().find("container pause1") != std::string::npos, run.msg());
  CHECK_FALSE(node.endpoint("pause1_cbr0"));
  CHECK(node.held_addresses("cbr0").empty());
  CHECK(node.audit() == "");

  // Once Docker has started it, the runtime's next attempt succeeds.
  node.start_container("pause1");
  node.add("pause1", "none", config);
  CHECK(shared_containers(node, "pause1_cbr0") == std::vector<std::string>{"pause1"});
  node.del("pause1", "none", config);
  CHECK(node.audit() == "");
}

TEST_CASE(
    "a container joining the pod before it runs, or a repeated ADD after the pod's container went: "
    "the endpoint stays, and ADD succeeds as the reference's does") {
  EmulatedNode node;
  node.host_gw();
  const std::string config = dockershim_config(node);
  const json pause = node.add("pause1", "none", config);
  node.starts_containers = false;
  CHECK(node.add("app1", "container:pause1", config) == pause);
  CHECK(shared_containers(node, "pause1_cbr0") == std::vector<std::string>{"pause1"});

  node.stop_container("pause1");
  CHECK(shared_containers(node, "pause1_cbr0").empty());  // its vNIC went with it
  CHECK(node.add("pause1", "none", config) == pause);     // reused: same endpoint, same address
  CHECK(node.held_addresses("cbr0").size() == 1);
  node.del("app1", "container:pause1", config);
  node.del("pause1", "none", config);
  CHECK_FALSE(node.endpoint("pause1_cbr0"));
  CHECK(node.held_addresses("cbr0").empty());
  CHECK(node.audit() == "");
}

TEST_CASE("Docker stops the pod before DEL: DEL removes the endpoint and its address, and again finds nothing") {
  EmulatedNode node;
  node.host_gw();
  const std::string config = dockershim_config(node);
  node.add("pause1", "none", config);
  node.add("app1", "container:pause1", config);
  node.stop_container("app1");
  node.stop_container("pause1");
  node.del("app1", "container:pause1", config);
  CHECK(node.endpoint("pause1_cbr0"));
  node.del("pause1", "none", config);
  CHECK_FALSE(node.endpoint("pause1_cbr0"));
  CHECK(node.held_addresses("cbr0").empty());
  CHECK(node.plugin({"DEL", "pause1", "none", config}).ok());
  CHECK(node.audit() == "");
}

TEST_CASE("hnsctl container: start, show and stop a compute system, with HCS's answers for one that is not there") {
  EmulatedNode node;
  node.start_container("pause1");
  Run shown = node.hnsctl({"container", "show", "pause1"});
  CHECK(shown.ok());
  CHECK(shown.json()["SystemType"] == "Container");
  Run twice = node.hnsctl({"container", "start", "pause1"});
  CHECK_FALSE(twice.ok());
  const std::string said = twice.out + twice.err;
  CHECK_MESSAGE(said.find("HCS_E_SYSTEM_ALREADY_EXISTS") != std::string::npos, said);
  node.stop_container("pause1");
  CHECK_FALSE(node.hnsctl({"container", "show", "pause1"}).ok());
  CHECK_FALSE(node.hnsctl({"container", "stop", "pause1"}).ok());
}
