// The v1 view of the emulator's v2 store and the v2 form of what v1 posts
// (v1_views.hpp): one HNS store, both APIs.

#include <doctest/doctest.h>

#include "v1_views.hpp"
#include "wincni/hns/schema/policy.hpp"

using namespace wincni::hns;
using nlohmann::json;
using wincni::cni::IpAddress;

TEST_CASE("a v1 network becomes a v2 network and back") {
  HnsNetwork v1 =
      HnsNetwork::from_json(json::parse(R"({"Name":"vxlan0","Type":"Overlay","NetworkAdapterName":"Ethernet",
    "Subnets":[{"AddressPrefix":"10.244.1.0/24","GatewayAddress":"10.244.1.1"}],
    "Policies":[{"Type":"VSID","VSID":4097}],"DNSServerList":"10.96.0.10, 8.8.8.8"})"));
  HostComputeNetwork v2 = to_v2(v1);
  REQUIRE(v2.find_policy<NetAdapterNamePolicy>());
  CHECK(v2.find_policy<NetAdapterNamePolicy>()->network_adapter_name == "Ethernet");
  REQUIRE(v2.subnets().size() == 1);
  CHECK(v2.subnets()[0]->gateway() == IpAddress::parse("10.244.1.1"));
  REQUIRE(v2.subnets()[0]->policies.size() == 1);
  CHECK(v2.subnets()[0]->policies[0].as<VsidPolicy>()->isolation_id == 4097);
  CHECK(v2.dns.server_list == std::vector<std::string>{"10.96.0.10", "8.8.8.8"});
  HnsNetwork back = to_v1(v2, IpAddress::parse("192.0.2.4"));
  CHECK(back.network_adapter_name == "Ethernet");
  CHECK(back.subnets.at(0).gateway_address == IpAddress::parse("10.244.1.1"));
  CHECK(back.dns_server_list == "10.96.0.10,8.8.8.8");
  CHECK(back.management_ip == IpAddress::parse("192.0.2.4"));
}

TEST_CASE("a v1 endpoint becomes a v2 endpoint and back") {
  HnsEndpoint v1 = HnsEndpoint::from_json(json::parse(R"({"Name":"abc_cbr0",
    "VirtualNetwork":"5A0B3C1D-0000-4000-8000-000000000002","IPAddress":"10.244.1.5","PrefixLength":24,
    "GatewayAddress":"10.244.1.2","DNSSuffix":"svc.cluster.local,cluster.local","DNSServerList":"10.96.0.10",
    "Policies":[{"Type":"OutBoundNAT","ExceptionList":["10.244.0.0/16"]}],"EncapOverhead":50,"IsRemoteEndpoint":true})"));
  HostComputeEndpoint v2 = to_v2(v1);
  CHECK(v2.ip_configurations.at(0).prefix_length == 24);
  CHECK(v2.routes.at(0).next_hop == IpAddress::parse("10.244.1.2"));
  CHECK(v2.routes.at(0).is_default());
  CHECK(v2.dns.search == std::vector<std::string>{"svc.cluster.local", "cluster.local"});
  CHECK(v2.find_policy<EncapOverheadPolicy>()->overhead == 50);
  CHECK(v2.flags == HostComputeEndpoint::kRemoteEndpoint);
  HostComputeNetwork network;
  network.name = "cbr0";
  HnsEndpoint back = to_v1(v2, network);
  CHECK(back.virtual_network_name == "cbr0");
  CHECK(back.ip_address == v1.ip_address);
  CHECK(back.gateway_address == v1.gateway_address);
  CHECK(back.dns_suffix == v1.dns_suffix);
  CHECK(back.encap_overhead == 50);
  CHECK(back.policies == v1.policies);
  CHECK(back.is_remote_endpoint);
}
