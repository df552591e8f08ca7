// The Overlay network win-overlay creates when the config says how (master
// and a subnet) and flanneld has not: made as flanneld makes it, and refused
// where Windows or this host's HNS cannot have it. STATUS compares the
// network it finds with the config.

#include <doctest/doctest.h>

#include <set>

#include "emulated_node.hpp"
#include "overlay_configs.hpp"
#include "simultaneous_pods.hpp"

using namespace wincni;
using namespace wincni::test;
using nlohmann::json;

namespace {

json creatable_config(const EmulatedNode& node) {
  json config = overlay_config(node);
  config["master"] = "Ethernet";
  return config;
}

// The network's policy of `type`, or null.
json network_policy(const json& network, const std::string& type) {
  for (const json& policy : network.value("Policies", json::array())) {
    if (policy.value("Type", "") == type) return policy;
  }
  return nullptr;
}

json only_network(const EmulatedNode& node) {
  const auto networks = node.networks();
  REQUIRE(networks.size() == 1);
  return networks[0];
}

}  // namespace

TEST_CASE("a network win-overlay creates: Overlay, VSID 4096, VxlanPort 4789, HostRoute, not persistent") {
  EmulatedNode node;
  const std::string netns = node.create_namespace();
  const json config = creatable_config(node);
  node.add("pod1", netns, config.dump());
  const json network = only_network(node);
  CHECK(network["Name"] == "flannel.4096");
  CHECK(network["Type"] == "Overlay");
  CHECK((network["Flags"].get<int>() & 8) == 8);  // EnableNonPersistent
  const json& subnet = network["Ipams"][0]["Subnets"][0];
  CHECK(subnet["IpAddressPrefix"] == kOverlaySubnet);
  CHECK(subnet["Policies"][0]["Type"] == "VSID");
  CHECK(subnet["Policies"][0]["Settings"]["IsolationId"] == 4096);
  CHECK(network_policy(network, "VxlanPort")["Settings"]["Port"] == 4789);
  CHECK(network_policy(network, "HostRoute") != nullptr);
  // What HNS adds and flanneld reads back.
  CHECK(network_policy(network, "DrMacAddress") != nullptr);
  CHECK(network_policy(network, "ProviderAddress") != nullptr);
  node.del("pod1", netns, config.dump());
  CHECK(node.audit() == "");
}

TEST_CASE("10 simultaneous first ADDs create exactly one Overlay network") {
  constexpr size_t kPods = 10;
  EmulatedNode node;
  const std::string text = creatable_config(node).dump();
  std::vector<std::string> namespaces;
  for (size_t i = 0; i < kPods; ++i) namespaces.push_back(node.create_namespace());

  CHECK(added_addresses(at_once(node, "ADD", namespaces, text)).size() == kPods);
  CHECK(only_network(node)["Type"] == "Overlay");
  CHECK(node.endpoints().size() == kPods);
  for (const Run& run : at_once(node, "DEL", namespaces, text)) CHECK_MESSAGE(run.ok(), run.out);
  CHECK(node.endpoints().empty());
  CHECK(node.held_addresses("flannel.4096").empty());
  CHECK(node.audit() == "");
}

TEST_CASE("vni and vxlanPort from the config; a VNI below 4096 is refused before anything is made") {
  EmulatedNode node;
  const std::string netns = node.create_namespace();
  json config = creatable_config(node);
  config["vni"] = 5000;
  config["vxlanPort"] = 4790;
  node.add("pod1", netns, config.dump());
  const json network = only_network(node);
  CHECK(network["Ipams"][0]["Subnets"][0]["Policies"][0]["Settings"]["IsolationId"] == 5000);
  CHECK(network_policy(network, "VxlanPort")["Settings"]["Port"] == 4790);
  node.del("pod1", netns, config.dump());

  EmulatedNode fresh;
  json low = creatable_config(fresh);
  low["vni"] = 1;
  Run run = fresh.plugin({"ADD", "pod1", fresh.create_namespace(), low.dump()});
  CHECK(run.code() == 7);
  CHECK_MESSAGE(run.msg().find("at least 4096") != std::string::npos, run.msg());
  CHECK(fresh.networks().empty());
}

TEST_CASE("before HNS 10.3: no VxlanPort policy, and another port than 4789 is refused") {
  EmulatedNode node;
  // The emulator's own setting, not `hnsctl version --set`: hnsctl.exe
  // talks to HNS through the DLLs and cannot set what HNS is.
  const std::map<std::string, std::string> hns_10_2 = {{"WINCNI_EMULATOR_HNS_VERSION", "10.2"}};
  const std::string netns = node.create_namespace();
  json other_port = creatable_config(node);
  other_port["vxlanPort"] = 4790;
  Run run = node.plugin({"ADD", "pod1", netns, other_port.dump(), hns_10_2});
  CHECK(run.code() == 2);
  CHECK_MESSAGE(run.msg().find("10.3") != std::string::npos, run.msg());
  CHECK(node.networks().empty());
  CHECK(node.held_addresses("flannel.4096").empty());

  const json config = creatable_config(node);
  run = node.plugin({"ADD", "pod1", netns, config.dump(), hns_10_2});
  REQUIRE_MESSAGE(run.ok(), run.out);
  CHECK(network_policy(only_network(node), "VxlanPort") == nullptr);
  run = node.plugin({"DEL", "pod1", netns, config.dump(), hns_10_2});
  CHECK_MESSAGE(run.ok(), run.out);
}

TEST_CASE("dockershim (HNS v1) creates the network through HCN too, as flanneld does" *
          doctest::test_suite("<hns-v1>")) {
  EmulatedNode node;
  json config = creatable_config(node);
  config.erase("apiVersion");
  node.add("pod1", "none", config.dump());
  const json network = only_network(node);
  CHECK((network["Flags"].get<int>() & 8) == 8);
  CHECK(network["Ipams"][0]["Subnets"][0]["Policies"][0]["Settings"]["IsolationId"] == 4096);
  node.del("pod1", "none", config.dump());
  CHECK(node.audit() == "");
}

TEST_CASE("STATUS: ready on flanneld's network; 51 when its VNI is not the config's; 50 while it is missing") {
  EmulatedNode node;
  json config = overlay_config(node, "1.1.0");
  CHECK(node.plugin({"STATUS", "", "", config.dump()}).code() == 50);
  node.vxlan();
  Run ready = node.plugin({"STATUS", "", "", config.dump()});
  CHECK_MESSAGE(ready.ok(), ready.out);
  config["vni"] = 4097;
  Run other = node.plugin({"STATUS", "", "", config.dump()});
  CHECK(other.code() == 51);
  CHECK_MESSAGE(other.msg().find("4097") != std::string::npos, other.msg());
}
