#pragma once
// The flavors every engine test runs for (TEST_CASE_TEMPLATE over
// FlavorCases): each case names a flavor, the node it works on as whatever
// creates that network leaves it, and the config a runtime hands the plugin
// there. A plugin built on the engine adds its case here, and every engine
// flow runs for it without a copy.

#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "engine_node.hpp"
#include "foreign_endpoint.hpp"
#include "test_flavor.hpp"
#include "wincni/bridge/bridge_flavor.hpp"
#include "wincni/overlay/overlay_flavor.hpp"

namespace wincni::test {

// The smallest flavor on a plain L2Bridge network that has no node endpoint:
// every rule is the engine's default.
struct DefaultRulesCase {
  static constexpr const char* kName = "the engine's defaults";
  static constexpr const char* kNetwork = "testnet";
  static constexpr const char* kFirstAddress = "10.250.0.2/24";
  static const engine::EndpointFlavor& flavor() {
    static const TestFlavor flavor;
    return flavor;
  }
  static void prepare(const EmulatedNode& node) {
    hns::HostComputeNetwork network;
    network.name = kNetwork;
    network.type = hns::NetworkType::L2Bridge;
    network.policies.push_back(hns::Policy{hns::NetAdapterNamePolicy{"Ethernet"}});
    hns::Subnet subnet;
    subnet.ip_address_prefix = *cni::IpPrefix::parse("10.250.0.0/24");
    hns::Route route;
    route.destination_prefix = *cni::IpPrefix::parse("0.0.0.0/0");
    route.next_hop = cni::IpAddress::parse("10.250.0.1");
    subnet.routes.push_back(route);
    hns::Ipam ipam;
    ipam.subnets.push_back(subnet);
    network.ipams.push_back(ipam);
    node_client(node).create_network(network);
  }
  static nlohmann::json config(const EmulatedNode& node, const std::string& version = "1.0.0") {
    return nlohmann::json{
        {"cniVersion", version},
        {"name", kNetwork},
        {"type", "test-flavor"},
        {"ipam", {{"type", "host-local"}, {"subnet", "10.250.0.0/24"}, {"dataDir", node.ipam_dir()}}},
    };
  }
};

// win-bridge on flanneld's host-gw node.
struct BridgeCase {
  static constexpr const char* kName = "win-bridge";
  static constexpr const char* kNetwork = "cbr0";
  static constexpr const char* kFirstAddress = "10.244.1.3/24";
  static const engine::EndpointFlavor& flavor() {
    static const bridge::BridgeFlavor flavor;
    return flavor;
  }
  static void prepare(const EmulatedNode& node) { node.host_gw(); }
  static nlohmann::json config(const EmulatedNode& node, const std::string& version = "1.0.0") {
    return nlohmann::json{
        {"cniVersion", version},
        {"name", kNetwork},
        {"type", "win-bridge"},
        {"ipMasq", true},
        {"ipMasqNetwork", "10.244.0.0/16"},
        {"ipam", {{"type", "host-local"}, {"subnet", "10.244.1.0/24"}, {"dataDir", node.ipam_dir()}}},
    };
  }
};

// win-overlay on flanneld's vxlan node.
struct OverlayCase {
  static constexpr const char* kName = "win-overlay";
  static constexpr const char* kNetwork = "flannel.4096";
  static constexpr const char* kFirstAddress = "10.244.3.2/24";
  static const engine::EndpointFlavor& flavor() {
    static const overlay::OverlayFlavor flavor;
    return flavor;
  }
  static void prepare(const EmulatedNode& node) { node.vxlan(); }
  static nlohmann::json config(const EmulatedNode& node, const std::string& version = "1.0.0") {
    return nlohmann::json{
        {"cniVersion", version},
        {"name", kNetwork},
        {"type", "win-overlay"},
        {"ipMasq", true},
        {"ipam", {{"type", "host-local"}, {"subnet", "10.244.3.0/24"}, {"dataDir", node.ipam_dir()}}},
    };
  }
};

#define WINCNI_FLAVOR_CASES ::wincni::test::DefaultRulesCase, ::wincni::test::BridgeCase, ::wincni::test::OverlayCase

// A node prepared for `Case`, with the engine in process.
template <class Case>
struct CaseNode : EngineNode {
  CaseNode() : EngineNode(Case::flavor()) { Case::prepare(*this); }
  nlohmann::json config(const std::string& version = "1.0.0") const { return Case::config(*this, version); }
};

}  // namespace wincni::test
