// Many pods at once on a node whose network does not exist yet: the config
// says how to create it, and exactly one network (with one bridge endpoint)
// is created.

#include <doctest/doctest.h>

#include <set>

#include "configs.hpp"
#include "emulated_node.hpp"
#include "mixed_workload.hpp"
#include "simultaneous_pods.hpp"

using namespace wincni;
using namespace wincni::test;
using nlohmann::json;

TEST_CASE("50 simultaneous first ADDs create exactly one network" * doctest::test_suite("<duplicate-id>")) {
  constexpr size_t kPods = 50;
  EmulatedNode node;
  json config = bridge_config(node);
  config["master"] = "Ethernet";  // with ipam.subnet: the plugin may create cbr0
  const std::string text = config.dump();
  std::vector<std::string> namespaces;
  for (size_t i = 0; i < kPods; ++i) namespaces.push_back(node.create_namespace());

  const std::set<std::string> addresses = added_addresses(at_once(node, "ADD", namespaces, text));
  CHECK(addresses.size() == kPods);
  CHECK(node.networks().size() == 1);
  CHECK(node.endpoints().size() == kPods + 1);  // and the one bridge endpoint, cbr0_ep
  CHECK(node.endpoint("cbr0_ep"));
  CHECK(addresses.count("10.244.1.2/24") == 0);
  CHECK(node.audit() == "");

  for (const Run& run : at_once(node, "DEL", namespaces, text)) CHECK(run.ok());
  REQUIRE(node.endpoints().size() == 1);
  CHECK(node.endpoints()[0]["Name"] == "cbr0_ep");
  CHECK(node.held_addresses("cbr0").empty());
  CHECK(node.audit() == "");
}

TEST_CASE("a busy node: mixed ADD, DEL, CHECK and STATUS over many pods from 8 workers at once" *
          doctest::test_suite("<fault-sweep><namespace-state><namespace-listing>")) {
  EmulatedNode node;
  node.host_gw("10.244.1.0/24");
  check_busy_node(node, bridge_config(node, "1.1.0").dump(), busy_workload("cbr0"));
}
