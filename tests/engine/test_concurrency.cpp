// Many pods at once on a node whose network does not exist yet, the config
// saying how to create it: exactly one network is created, every pod gets
// its own address, and all of it goes again. In process, one thread per
// pod, as many plugin processes would run at once (tests/e2e runs the
// processes).

#include <doctest/doctest.h>

#include <filesystem>

#include "commands/network_locator.hpp"
#include "flavor_cases.hpp"
#include "folder_access.hpp"
#include "wincni/os/file_lock.hpp"
#include "simultaneous_pods.hpp"

using namespace wincni;
using namespace wincni::test;
using nlohmann::json;

namespace {

// The pods' endpoints: not the node's own (win-bridge's bridge endpoint).
size_t pod_endpoints(const EmulatedNode& node) {
  size_t count = 0;
  for (const json& endpoint : node.endpoints()) count += endpoint.value("Name", "").starts_with("pod") ? 1 : 0;
  return count;
}

}  // namespace

TEST_CASE_TEMPLATE("50 simultaneous first ADDs create exactly one network", Case, WINCNI_FLAVOR_CASES) {
  constexpr size_t kPods = 50;
  EngineNode node(Case::flavor());
  json config = Case::config(node);
  config["master"] = "Ethernet";  // with ipam.subnet: the plugin may create the network
  std::vector<std::string> namespaces;
  for (size_t i = 0; i < kPods; ++i) namespaces.push_back(node.create_namespace());

  CHECK(added_addresses(at_once(node, "ADD", namespaces, config.dump())).size() == kPods);
  REQUIRE(node.networks().size() == 1);
  CHECK(node.networks()[0]["Name"] == Case::kNetwork);
  // Shaped as one ADD alone makes it (type, subnets with an overlay's VSID,
  // policies): the race must not leave a half-made network.
  EngineNode alone(Case::flavor());
  json alone_config = Case::config(alone);
  alone_config["master"] = "Ethernet";
  alone.add("pod0", alone.create_namespace(), alone_config.dump());
  REQUIRE(alone.networks().size() == 1);
  for (const char* key : {"Type", "Ipams", "Policies"}) {
    CAPTURE(key);
    CHECK(node.networks()[0].value(key, json()) == alone.networks()[0].value(key, json()));
  }
  CHECK(pod_endpoints(node) == kPods);
  CHECK(node.audit() == "");

  for (const Run& run : at_once(node, "DEL", namespaces, config.dump())) CHECK(run.ok());
  CHECK(pod_endpoints(node) == 0);
  CHECK(node.held_addresses(Case::kNetwork).empty());
  CHECK(node.audit() == "");
}

// security review, finding 2: the network-creation lock sits in a folder any
// user could create first (%ProgramData%\\wincni on a node); whoever holds
// it must not hang every ADD for ever.
TEST_CASE_TEMPLATE("an ADD that must create its network waits for a held creation lock only so long: code 11", Case,
                   WINCNI_FLAVOR_CASES) {
  EngineNode node(Case::flavor());
  json config = Case::config(node);
  config["master"] = "Ethernet";
  std::filesystem::create_directories(node.path("plugin"));
  const os::FileLock squatter(engine::network_lock_path(node.path("plugin")));
  const Run run =
      node.plugin({"ADD", "pod1", node.create_namespace(), config.dump(), {{"WINCNI_NETWORK_LOCK_TIMEOUT_MS", "300"}}});
  CHECK(run.code() == cni::kTryAgainLater);
  CHECK(run.msg().find("waited 300 ms for the lock") != std::string::npos);
  CHECK(node.networks().empty());
  CHECK(node.held_addresses(Case::kNetwork).empty());
}

// security review, finding 2: a folder for the lock that someone else made
// first, or may write, is refused before the lock is taken in it.
TEST_CASE_TEMPLATE("an ADD that must create its network refuses a lock folder others may write: code 5", Case,
                   WINCNI_FLAVOR_CASES) {
  EngineNode node(Case::flavor());
  json config = Case::config(node);
  config["master"] = "Ethernet";
  std::filesystem::create_directories(node.path("plugin"));
  wincni::test::let_everyone_write(node.path("plugin"));
  const Run run = node.plugin({"ADD", "pod1", node.create_namespace(), config.dump()});
  CHECK(run.code() == cni::kIoFailure);
  CHECK_MESSAGE(run.msg().find("could replace what a plugin keeps there") != std::string::npos, run.msg());
  CHECK(std::filesystem::is_empty(node.path("plugin")));
  CHECK(node.networks().empty());
  CHECK(node.held_addresses(Case::kNetwork).empty());
  wincni::test::let_only_administrators_write(node.path("plugin"));
  CHECK(node.plugin({"ADD", "pod1", node.create_namespace(), config.dump()}).ok());
}
