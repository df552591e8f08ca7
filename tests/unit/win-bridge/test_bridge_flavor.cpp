#include <doctest/doctest.h>

#include "addresses.hpp"
#include "cni_test_helpers.hpp"
#include "commands/network_locator.hpp"
#include "fixture_configs.hpp"
#include "parsed_config.hpp"
#include "plan/endpoint_marker.hpp"
#include "wincni/bridge/bridge_flavor.hpp"

using namespace wincni;
using namespace wincni::engine;
using nlohmann::json;
using test::config_of;
using test::ip;
using test::prefix;

namespace {

const hns::HnsVersion kModernHns{15, 4};

// flanneld's cbr0: L2Bridge, gateway .1 (HNS keeps it), cbr0_ep at .2.
NetworkView host_gw_network(hns::NetworkType type = hns::NetworkType::L2Bridge) {
  NetworkView network;
  network.name = "cbr0";
  network.type = type;
  network.subnets = {SubnetView{prefix("10.244.1.0/24"), ip("10.244.1.1"), ip("10.244.1.1"), {}}};
  return network;
}

// An L2Bridge network as HNS shows it: each subnet with its HNS gateway,
// the address HNS keeps.
NetworkView l2bridge(const std::string& name,
                     std::initializer_list<std::pair<const char*, const char*>> subnets_and_gateways) {
  NetworkView network;
  network.name = name;
  network.type = hns::NetworkType::L2Bridge;
  for (const auto& [subnet, gateway] : subnets_and_gateways) {
    network.subnets.push_back(SubnetView{prefix(subnet), ip(gateway), ip(gateway), {}});
  }
  return network;
}

const bridge::BridgeFlavor flavor;

}  // namespace

TEST_CASE("on L2Bridge the pod's gateway is the bridge endpoint, .2") {
  auto config = config_of(R"({"name":"cbr0","ipam":{"type":"host-local","subnet":"10.244.1.0/24"}})");
  // host-local's default gateway (.1) is what it prints, not what the operator wrote.
  CHECK(flavor.pod_gateway(config, host_gw_network(), ip("10.244.1.7"), ip("10.244.1.1")) == ip("10.244.1.2"));
}

TEST_CASE("an explicit gateway wins; forceBridgeGateway wins over it") {
  auto ranges = config_of(R"({"name":"cbr0","ipam":{"ranges":[[{"subnet":"10.244.1.0/24","gateway":"10.244.1.9"}]]}})");
  CHECK(flavor.pod_gateway(ranges, host_gw_network(), ip("10.244.1.7"), ip("10.244.1.9")) == ip("10.244.1.9"));
  auto routes = config_of(R"({"name":"cbr0","ipam":{"subnet":"10.244.1.0/24","routes":[{"GW":"10.244.1.66"}]}})");
  CHECK(flavor.pod_gateway(routes, host_gw_network(), ip("10.244.1.7"), std::nullopt) == ip("10.244.1.66"));
  auto additional = config_of(R"({"name":"cbr0","optionalFlags":{"gatewayFromAdditionalRoutes":true},
                                  "additionalRoutes":[{"GW":"10.244.1.4","Dst":"0.0.0.0/0"}]})");
  CHECK(flavor.pod_gateway(additional, host_gw_network(), ip("10.244.1.7"), std::nullopt) == ip("10.244.1.4"));
  // Without the flag the route gives no gateway: the .2 stays.
  auto unflagged = config_of(R"({"name":"cbr0","additionalRoutes":[{"GW":"10.244.1.4","Dst":"0.0.0.0/0"}]})");
  CHECK(flavor.pod_gateway(unflagged, host_gw_network(), ip("10.244.1.7"), std::nullopt) == ip("10.244.1.2"));
  auto forced = config_of(R"({"name":"cbr0","optionalFlags":{"forceBridgeGateway":true},
                              "ipam":{"ranges":[[{"subnet":"10.244.1.0/24","gateway":"10.244.1.9"}]]}})");
  CHECK(flavor.pod_gateway(forced, host_gw_network(), ip("10.244.1.7"), ip("10.244.1.9")) == ip("10.244.1.2"));
}

TEST_CASE("the legacy example's gateway is its ipam.routes GW, which is also its .2") {
  auto config = read_endpoint_config(cni::NetConf::parse(test::fixture_config("legacy-wincni-l2bridge.conf")));
  NetworkView network;
  network.type = hns::NetworkType::L2Bridge;
  network.subnets = {SubnetView{prefix("10.10.187.64/26"), ip("10.10.187.66"), ip("10.10.187.66"), {}}};
  CHECK(flavor.pod_gateway(config, network, ip("10.10.187.65"), std::nullopt) == ip("10.10.187.66"));
  CHECK(bridge::bridge_endpoint_address(prefix("10.10.187.64/26")) == ip("10.10.187.66"));
}

TEST_CASE("IPv6 follows the same rule") {
  auto config = config_of(R"({"name":"cbr0"})");
  NetworkView network = host_gw_network();
  network.subnets.push_back(SubnetView{prefix("fd00:1::/64"), ip("fd00:1::1"), ip("fd00:1::1"), {}});
  CHECK(flavor.pod_gateway(config, network, ip("fd00:1::9"), std::nullopt) == ip("fd00:1::2"));
}

TEST_CASE("on L2Tunnel there is no bridge endpoint: explicit, else IPAM's, else the subnet's") {
  auto config = config_of(R"({"name":"cbr0"})");
  const NetworkView tunnel = host_gw_network(hns::NetworkType::L2Tunnel);
  CHECK(flavor.pod_gateway(config, tunnel, ip("10.244.1.7"), ip("10.244.1.5")) == ip("10.244.1.5"));
  CHECK(flavor.pod_gateway(config, tunnel, ip("10.244.1.7"), std::nullopt) == ip("10.244.1.1"));
}

TEST_CASE("host-local is kept from handing out HNS's gateway and the bridge endpoint") {
  auto config = config_of(R"({"name":"cbr0","ipam":{"type":"host-local","subnet":"10.244.1.0/24"}})");
  json ipam =
      flavor.ipam_for_add(config, host_gw_network(), json::parse(R"({"type":"host-local","subnet":"10.244.1.0/24"})"));
  CHECK(ipam == json::parse(R"({"type":"host-local","subnet":"10.244.1.0/24","rangeStart":"10.244.1.3"})"));

  // Every range of every set, each for its own subnet.
  const char* dual =
      R"({"name":"cbr0","ipam":{"type":"host-local","ranges":[[{"subnet":"10.244.1.0/24"}],[{"subnet":"fd00:1::/64"}]]}})";
  NetworkView network = host_gw_network();
  network.subnets.push_back(SubnetView{prefix("fd00:1::/64"), ip("fd00:1::1"), ip("fd00:1::1"), {}});
  ipam = flavor.ipam_for_add(config_of(dual), network, json::parse(dual)["ipam"]);
  CHECK(ipam["ranges"][0][0]["rangeStart"] == "10.244.1.3");
  CHECK(ipam["ranges"][1][0]["rangeStart"] == "fd00:1::3");
}

TEST_CASE("an operator's rangeStart, another IPAM, or nothing to skip: the ipam section is unchanged") {
  const char* started =
      R"({"name":"cbr0","ipam":{"type":"host-local","subnet":"10.244.1.0/24","rangeStart":"10.244.1.1"}})";
  CHECK(flavor.ipam_for_add(config_of(started), host_gw_network(), json::parse(started)["ipam"]) ==
        json::parse(started)["ipam"]);
  const char* other = R"({"name":"cbr0","ipam":{"type":"azure-vnet-ipam","subnet":"10.244.1.0/24"}})";
  CHECK(flavor.ipam_for_add(config_of(other), host_gw_network(), json::parse(other)["ipam"]) ==
        json::parse(other)["ipam"]);
  // L2Tunnel keeps only HNS's gateway out: .1, so host-local starts at .2.
  const char* plain = R"({"name":"cbr0","ipam":{"type":"host-local","subnet":"10.244.1.0/24"}})";
  CHECK(flavor.ipam_for_add(config_of(plain), host_gw_network(hns::NetworkType::L2Tunnel),
                            json::parse(plain)["ipam"])["rangeStart"] == "10.244.1.2");
  // A network whose HNS subnet reserves nothing and an explicit .2 gateway:
  // host-local skips its own gateway, .1 is free.
  const char* explicit_gateway =
      R"({"name":"cbr0","ipam":{"type":"host-local","subnet":"10.244.1.0/24","gateway":"10.244.1.2"}})";
  NetworkView unreserved = host_gw_network();
  unreserved.subnets[0].reserved.reset();
  CHECK(flavor.ipam_for_add(config_of(explicit_gateway), unreserved, json::parse(explicit_gateway)["ipam"]) ==
        json::parse(explicit_gateway)["ipam"]);
}

TEST_CASE("the networks win-bridge works on, and the one it creates") {
  CHECK(flavor.accepts(hns::NetworkType::L2Bridge));
  CHECK(flavor.accepts(hns::NetworkType::L2Tunnel));
  CHECK_FALSE(flavor.accepts(hns::NetworkType::NAT));
  CHECK_FALSE(flavor.accepts(hns::NetworkType::Overlay));
  CHECK(flavor.type_to_create(config_of(R"({"name":"n","type":"l2tunnel"})")) == hns::NetworkType::L2Tunnel);
  CHECK(flavor.type_to_create(config_of(R"({"name":"n","type":"L2Tunnel"})")) == hns::NetworkType::L2Tunnel);
  CHECK(flavor.type_to_create(config_of(R"({"name":"n","type":"sdnbridge"})")) == hns::NetworkType::L2Bridge);
  CHECK(flavor.type_to_create(config_of(R"({"name":"n","type":"win-bridge"})")) == hns::NetworkType::L2Bridge);
}

TEST_CASE("a network win-bridge creates: HNS keeps .1, the bridge endpoint sits at the pods' gateway") {
  // The legacy example: its gateway (ipam.routes GW) is the pods', i.e. the
  // bridge endpoint's; HNS's gateway is the subnet's first address, as on
  // flanneld's cbr0.
  auto legacy = read_endpoint_config(cni::NetConf::parse(test::fixture_config("legacy-wincni-l2bridge.conf")));
  const NetworkSpec spec = creatable_network(legacy, flavor, kModernHns).value();
  CHECK(spec.id == network_marker_id("l2bridge"));
  CHECK(spec.type == hns::NetworkType::L2Bridge);
  CHECK(spec.adapter == "Ethernet");
  REQUIRE(spec.subnets.size() == 1);
  CHECK(spec.subnets[0].prefix == prefix("10.10.187.64/26"));
  CHECK(spec.subnets[0].gateway == ip("10.10.187.65"));

  const auto plan = flavor.host_endpoint(legacy, l2bridge("l2bridge", {{"10.10.187.64/26", "10.10.187.65"}}));
  REQUIRE(plan);
  CHECK(plan->name == "l2bridge_ep");
  CHECK(plan->addresses == std::vector<cni::IpPrefix>{prefix("10.10.187.66/26")});

  // Without an explicit gateway: .1 for HNS, .2 for the bridge endpoint.
  auto plain =
      config_of(R"({"name":"cbr0","master":"Ethernet","ipam":{"type":"host-local","subnet":"10.244.1.0/24"}})");
  CHECK(creatable_network(plain, flavor, kModernHns).value().subnets[0].gateway == ip("10.244.1.1"));
  CHECK(flavor.host_endpoint(plain, host_gw_network())->addresses ==
        std::vector<cni::IpPrefix>{prefix("10.244.1.2/24")});
}

TEST_CASE("a created dual-stack network: one bridge endpoint for both families, none where HNS keeps the gateway") {
  auto dual =
      read_endpoint_config(cni::NetConf::parse(test::fixture_config("ms-l2bridgedualstack_host-local_ipam.conf")));
  const NetworkSpec spec = creatable_network(dual, flavor, kModernHns).value();
  REQUIRE(spec.subnets.size() == 2);
  CHECK(spec.subnets[0].gateway == ip("192.168.1.1"));
  CHECK(spec.subnets[1].gateway == ip("fd00::101"));
  const NetworkView created =
      l2bridge("winl2bridge", {{"192.168.1.0/24", "192.168.1.1"}, {"fd00::100/120", "fd00::101"}});
  // The IPv6 range's gateway is fd00::101, which HNS keeps: no endpoint can
  // hold it, so the bridge endpoint has the IPv4 gateway only.
  CHECK(flavor.host_endpoint(dual, created)->addresses == std::vector<cni::IpPrefix>{prefix("192.168.1.2/24")});

  auto both = config_of(R"({"name":"ds","master":"Ethernet","ipam":{"type":"host-local",
      "ranges":[[{"subnet":"10.244.2.0/24"}],[{"subnet":"fd00:10:244:2::/64"}]]}})");
  const NetworkView ds = l2bridge("ds", {{"10.244.2.0/24", "10.244.2.1"}, {"fd00:10:244:2::/64", "fd00:10:244:2::1"}});
  CHECK(flavor.host_endpoint(both, ds)->addresses ==
        std::vector<cni::IpPrefix>{prefix("10.244.2.2/24"), prefix("fd00:10:244:2::2/64")});
}

TEST_CASE("L2Tunnel: the created network's gateway is the config's (else .1), and there is no bridge endpoint") {
  auto tunnel = read_endpoint_config(cni::NetConf::parse(test::fixture_config("ms-l2tunnel.conf")));
  const NetworkSpec spec = creatable_network(tunnel, flavor, kModernHns).value();
  CHECK(spec.type == hns::NetworkType::L2Tunnel);
  CHECK(spec.subnets[0].gateway == ip("10.240.0.1"));
  auto explicit_gateway = config_of(R"({"name":"t","type":"l2tunnel","master":"Ethernet",
      "ipam":{"subnet":"10.240.0.0/12","routes":[{"GW":"10.240.0.9"}]}})");
  CHECK(creatable_network(explicit_gateway, flavor, kModernHns).value().subnets[0].gateway == ip("10.240.0.9"));
  CHECK_FALSE(flavor.host_endpoint(explicit_gateway, host_gw_network(hns::NetworkType::L2Tunnel)));
}

TEST_CASE("the bridge endpoint is named even when the pods route through HNS's own gateway") {
  // An explicit .1 is the address HNS keeps: no endpoint can hold it, but
  // the bridge endpoint is still looked for by name (its address is kept
  // from pods).
  auto config =
      config_of(R"({"name":"cbr0","ipam":{"type":"host-local","subnet":"10.244.1.0/24","gateway":"10.244.1.1"}})");
  const auto plan = flavor.host_endpoint(config, host_gw_network());
  REQUIRE(plan);
  CHECK(plan->name == "cbr0_ep");
  CHECK(plan->addresses.empty());
}

TEST_CASE("host-local is kept from the host endpoint's address too, wherever the pods' gateway is") {
  // flanneld's node (cbr0_ep at .2) and a config whose explicit gateway is
  // another address: host-local must still never hand out .2.
  const char* text = R"({"name":"cbr0","ipam":{"type":"host-local","subnet":"10.244.1.0/24","gateway":"10.244.1.1"}})";
  NetworkView network = host_gw_network();
  network.host_addresses = {ip("10.244.1.2")};
  CHECK(flavor.ipam_for_add(config_of(text), network, json::parse(text)["ipam"])["rangeStart"] == "10.244.1.3");
  // Without knowing the host endpoint, .2 would have been the start.
  CHECK(flavor.ipam_for_add(config_of(text), host_gw_network(), json::parse(text)["ipam"])["rangeStart"] ==
        "10.244.1.2");
}
