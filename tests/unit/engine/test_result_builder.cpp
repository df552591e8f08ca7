#include <doctest/doctest.h>

#include "addresses.hpp"
#include "plan/result_builder.hpp"

using namespace wincni;
using namespace wincni::engine;
using nlohmann::json;
using test::ip;
using test::prefix;

TEST_CASE("MACs in the form CNI results use") {
  CHECK(cni_mac("00-15-5D-0A-F4-05") == "00:15:5d:0a:f4:05");
  CHECK(cni_mac("0E-2A-0a-f4-01-05") == "0e:2a:0a:f4:01:05");
  CHECK(cni_mac("00:15:5d:0a:f4:05") == "00:15:5d:0a:f4:05");
  CHECK(cni_mac("") == "");
  CHECK(cni_mac("not a mac") == "not a mac");
}

TEST_CASE("a dual-stack endpoint's result") {
  EndpointView endpoint;
  endpoint.name = "pod1_cbr0";
  endpoint.mac = "00-15-5D-52-C0-01";
  endpoint.addresses = {prefix("10.244.1.3/24"), prefix("fd00::103/64")};
  endpoint.gateways = {ip("10.244.1.2"), ip("fd00::2")};
  hns::Route extra;
  extra.destination_prefix = prefix("10.96.0.0/12");
  extra.next_hop = ip("10.244.1.2");
  hns::Route default_route;
  default_route.destination_prefix = prefix("0.0.0.0/0");
  default_route.next_hop = ip("10.244.1.2");
  endpoint.routes = {default_route, extra};
  cni::Dns dns;
  dns.nameservers = {"10.96.0.10"};

  const PodInterface pod{"eth0", "0ab5c2e4-8c3f-4f43-9d8a-5b2a6c1e7f10"};
  CHECK(json(build_result(endpoint, pod, dns).encode("1.0.0")) == json::parse(R"({"cniVersion":"1.0.0",
      "interfaces":[{"name":"eth0","mac":"00:15:5d:52:c0:01","sandbox":"0ab5c2e4-8c3f-4f43-9d8a-5b2a6c1e7f10"},
                    {"name":"pod1_cbr0"}],
      "ips":[{"address":"10.244.1.3/24","gateway":"10.244.1.2","interface":0},
             {"address":"fd00::103/64","gateway":"fd00::2","interface":0}],
      "routes":[{"dst":"0.0.0.0/0","gw":"10.244.1.2"},{"dst":"::/0","gw":"fd00::2"},{"dst":"10.96.0.0/12","gw":"10.244.1.2"}],
      "dns":{"nameservers":["10.96.0.10"]}})"));
}

TEST_CASE("no gateway, no default route") {
  EndpointView endpoint;
  endpoint.name = "pod1_cbr0";
  endpoint.addresses = {prefix("10.244.1.3/24")};
  const cni::Result result = build_result(endpoint, {"eth0", ""}, {});
  REQUIRE(result.ips.size() == 1);
  CHECK_FALSE(result.ips[0].gateway);
  CHECK(result.routes.empty());
}
