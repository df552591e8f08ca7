// Many pods at once on a node whose network does not exist yet, the config
// saying how to create it: exactly one network is created, every pod gets
// its own address, and all of it goes again. In process, one thread per
// pod, as many plugin processes would run at once (tests/e2e runs the
// processes).

#include <doctest/doctest.h>

#include "flavor_cases.hpp"
#include "simultaneous_pods.hpp"

using namespace wincni;
using namespace wincni::test;
using nlohmann::json;

TEST_CASE("50 simultaneous first ADDs create exactly one network (the engine's defaults)") {
  constexpr size_t kPods = 50;
  EngineNode node(DefaultRulesCase::flavor());
  json config = DefaultRulesCase::config(node);
  config["master"] = "Ethernet";  // with ipam.subnet: the engine may create the network
  std::vector<std::string> namespaces;
  for (size_t i = 0; i < kPods; ++i) namespaces.push_back(node.create_namespace());

  CHECK(added_addresses(at_once(node, "ADD", namespaces, config.dump())).size() == kPods);
  CHECK(node.networks().size() == 1);
  CHECK(node.endpoints().size() == kPods);
  CHECK(node.audit() == "");

  for (const Run& run : at_once(node, "DEL", namespaces, config.dump())) CHECK(run.ok());
  CHECK(node.endpoints().empty());
  CHECK(node.held_addresses(DefaultRulesCase::kNetwork).empty());
  CHECK(node.audit() == "");
}
