// Many pods at once on a node whose network does not exist yet: the config
// says how to create it, and exactly one network (with one bridge endpoint)
// is created.

#include <doctest/doctest.h>

#include <set>
#include <thread>

#include "configs.hpp"
#include "emulated_node.hpp"

using namespace wincni;
using namespace wincni::test;
using nlohmann::json;

TEST_CASE("50 simultaneous first ADDs create exactly one network") {
  constexpr int kPods = 50;
  EmulatedNode node;
  json config = bridge_config(node);
  config["master"] = "Ethernet";  // with ipam.subnet: the plugin may create cbr0
  const std::string text = config.dump();
  std::vector<std::string> namespaces;
  for (int i = 0; i < kPods; ++i) namespaces.push_back(node.create_namespace());

  std::vector<Run> runs(kPods);
  std::vector<std::thread> threads;
  for (int i = 0; i < kPods; ++i) {
    threads.emplace_back([&, i] { runs[i] = node.plugin({"ADD", "pod" + std::to_string(i), namespaces[i], text}); });
  }
  for (auto& thread : threads) thread.join();

  std::set<std::string> addresses;
  for (int i = 0; i < kPods; ++i) {
    CHECK_MESSAGE(runs[i].ok(), "pod" << i << ": " << runs[i].out);
    if (runs[i].ok()) addresses.insert(runs[i].json()["ips"][0]["address"].get<std::string>());
  }
  CHECK(addresses.size() == kPods);
  CHECK(node.networks().size() == 1);
  CHECK(node.endpoints().size() == kPods + 1);  // and the one bridge endpoint, cbr0_ep
  CHECK(node.endpoint("cbr0_ep"));
  CHECK(addresses.count("10.244.1.2/24") == 0);
  CHECK(node.audit() == "");

  threads.clear();
  for (int i = 0; i < kPods; ++i) {
    threads.emplace_back([&, i] { runs[i] = node.plugin({"DEL", "pod" + std::to_string(i), namespaces[i], text}); });
  }
  for (auto& thread : threads) thread.join();
  for (int i = 0; i < kPods; ++i) CHECK(runs[i].ok());
  REQUIRE(node.endpoints().size() == 1);
  CHECK(node.endpoints()[0]["Name"] == "cbr0_ep");
  CHECK(node.held_addresses("cbr0").empty());
  CHECK(node.audit() == "");
}
