// The network view the engine's HNS access gives on both APIs: what a flavor
// reads of a network (type, subnets and gateways, the subnets' VSID, the
// network's own policies, the provider address) is there whichever API the
// runtime's invocation uses.

#include <doctest/doctest.h>

#include <memory>

#include "addresses.hpp"
#include "hns/hns_access.hpp"
#include "scratch_dir.hpp"
#include "wincni/hns/client.hpp"
#include "wincni/hns/emulator/emulator.hpp"

using namespace wincni;
using namespace wincni::engine;
using test::ip;
using test::prefix;

namespace {

struct Node {
  test::ScratchDir dir;
  std::shared_ptr<hns::emulator::Emulator> emulator;
  std::shared_ptr<hns::HnsClient> client;

  Node() {
    hns::emulator::EmulatorConfig config;
    config.state_dir = (dir / "hns").string();
    emulator = std::make_shared<hns::emulator::Emulator>(config);
    emulator->set_host_adapter("Ethernet", ip("192.0.2.4"));
    client = std::make_shared<hns::HnsClient>(emulator);
  }

  // As flanneld's vxlan backend creates it: VSID = VNI on the subnet, the
  // VXLAN port, the gateway .1; HNS adds the provider address and DR MAC.
  void overlay() {
    hns::HostComputeNetwork network;
    network.name = "flannel.4096";
    network.type = hns::NetworkType::Overlay;
    network.policies.push_back(hns::Policy{hns::NetAdapterNamePolicy{"Ethernet"}});
    network.policies.push_back(hns::Policy{hns::VxlanPortPolicy{4789}});
    hns::Subnet subnet;
    subnet.ip_address_prefix = prefix("10.244.1.0/24");
    subnet.policies.push_back(hns::Policy{hns::VsidPolicy{4096}});
    hns::Route route;
    route.destination_prefix = prefix("0.0.0.0/0");
    route.next_hop = ip("10.244.1.1");
    subnet.routes.push_back(route);
    hns::Ipam ipam;
    ipam.subnets.push_back(subnet);
    network.ipams.push_back(ipam);
    client->create_network(network);
  }
};

}  // namespace

TEST_CASE("an Overlay network's view is complete on HCN and on HNS v1") {
  Node node;
  node.overlay();
  for (const HnsApi api : {HnsApi::V2, HnsApi::V1}) {
    CAPTURE(static_cast<int>(api));
    const auto network = make_hns_access(api, node.client)->find_network("flannel.4096");
    REQUIRE(network);
    CHECK(network->type == hns::NetworkType::Overlay);
    CHECK(network->provider_address == ip("192.0.2.4"));
    REQUIRE(network->subnets.size() == 1);
    CHECK(network->subnets[0].prefix == prefix("10.244.1.0/24"));
    CHECK(network->subnets[0].gateway == ip("10.244.1.1"));
    const auto* vsid = find_policy<hns::VsidPolicy>(network->subnets[0].policies);
    REQUIRE(vsid != nullptr);
    CHECK(vsid->isolation_id == 4096);
    if (api == HnsApi::V2) {
      // HNS v1 has no form for these network policies.
      CHECK(find_policy<hns::DrMacAddressPolicy>(network->policies) != nullptr);
      const auto* port = find_policy<hns::VxlanPortPolicy>(network->policies);
      REQUIRE(port != nullptr);
      CHECK(port->port == 4789);
    }
  }
}

TEST_CASE("on HCN an Overlay network without a ProviderAddress policy takes HNS v1's management address") {
  Node node;
  node.overlay();
  auto network = node.client->find_network_by_name("flannel.4096");
  REQUIRE(network);
  node.client->modify_network(network->id, hns::policy_request(hns::RequestType::Remove,
                                                               {hns::Policy{hns::ProviderAddressPolicy{"192.0.2.4"}}}));
  REQUIRE_FALSE(node.client->find_network_by_name("flannel.4096")->find_policy<hns::ProviderAddressPolicy>());
  CHECK(make_hns_access(HnsApi::V2, node.client)->find_network("flannel.4096")->provider_address == ip("192.0.2.4"));
}
