// Many pods at once on a node whose network does not exist yet, the config
// saying how to create it: exactly one network is created, every pod gets
// its own address, and all of it goes again. In process, one thread per
// pod, as many plugin processes would run at once.

#include <doctest/doctest.h>

#include <set>
#include <thread>

#include "flavor_cases.hpp"

using namespace wincni;
using namespace wincni::test;
using nlohmann::json;

TEST_CASE("50 simultaneous first ADDs create exactly one network (the engine's defaults)") {
  constexpr int kPods = 50;
  EngineNode node(DefaultRulesCase::flavor());
  json config = DefaultRulesCase::config(node);
  config["master"] = "Ethernet";  // with ipam.subnet: the engine may create the network
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
  CHECK(node.endpoints().size() == kPods);
  CHECK(node.audit() == "");

  threads.clear();
  for (int i = 0; i < kPods; ++i) {
    threads.emplace_back([&, i] { runs[i] = node.plugin({"DEL", "pod" + std::to_string(i), namespaces[i], text}); });
  }
  for (auto& thread : threads) thread.join();
  for (int i = 0; i < kPods; ++i) CHECK(runs[i].ok());
  CHECK(node.endpoints().empty());
  CHECK(node.held_addresses(DefaultRulesCase::kNetwork).empty());
  CHECK(node.audit() == "");
}
