// One policy model, rendered to HNS v1 and HCN v2 JSON and read back from both.

#include <doctest/doctest.h>

#include "wincni/hns/schema/policy.hpp"
#include "wincni/hns/schema/schema_error.hpp"

using namespace wincni::hns;
using nlohmann::json;

TEST_CASE("OutBoundNAT renders with each API's field names") {
  Policy policy{OutboundNatPolicy{"", {"10.244.0.0/16", "10.96.0.0/12"}, {}, 0, 0}};
  CHECK(render_v1(policy) == json::parse(R"({"Type":"OutBoundNAT","ExceptionList":["10.244.0.0/16","10.96.0.0/12"]})"));
  CHECK(render_v2(policy) ==
        json::parse(R"({"Type":"OutBoundNAT","Settings":{"Exceptions":["10.244.0.0/16","10.96.0.0/12"]}})"));
  CHECK(parse_policy_v1(render_v1(policy)) == policy);
  CHECK(parse_policy_v2(render_v2(policy)) == policy);
}

TEST_CASE("loopback DSR is an OutBoundNAT with Destinations") {
  Policy policy{OutboundNatPolicy{"", {}, {"172.16.0.12"}, 0, 0}};
  CHECK(render_v1(policy) == json::parse(R"({"Type":"OutBoundNAT","Destinations":["172.16.0.12"]})"));
  CHECK(render_v2(policy) == json::parse(R"({"Type":"OutBoundNAT","Settings":{"Destinations":["172.16.0.12"]}})"));
}

TEST_CASE("port mappings: NAT with a protocol string in v1, PortMapping with a number in v2") {
  PortMappingPolicy mapping;
  mapping.protocol = IpProtocol{6};
  mapping.internal_port = 80;
  mapping.external_port = 8080;
  mapping.vip = "192.168.1.2";
  Policy policy{mapping};
  CHECK(render_v1(policy) == json::parse(R"({"Type":"NAT","InternalPort":80,"ExternalPort":8080,"Protocol":"tcp"})"));
  CHECK(
      render_v2(policy) ==
      json::parse(
          R"({"Type":"PortMapping","Settings":{"InternalPort":80,"ExternalPort":8080,"Protocol":6,"VIP":"192.168.1.2"}})"));
  auto from_v1 =
      parse_policy_v1(json::parse(R"({"Type":"NAT","InternalPort":80,"ExternalPort":8080,"Protocol":"TCP"})"));
  REQUIRE(from_v1.as<PortMappingPolicy>());
  CHECK(from_v1.as<PortMappingPolicy>()->protocol.number == 6);
  CHECK(from_v1.type() == "PortMapping");
}

TEST_CASE("PA and ProviderAddress, ROUTE and SDNRoute are one policy each") {
  Policy pa = parse_policy_v1(json::parse(R"({"Type":"PA","PA":"10.0.0.4"})"));
  REQUIRE(pa.as<ProviderAddressPolicy>());
  CHECK(render_v2(pa) == json::parse(R"({"Type":"ProviderAddress","Settings":{"ProviderAddress":"10.0.0.4"}})"));
  Policy route = parse_policy_v1(json::parse(R"({"Type":"ROUTE","DestinationPrefix":"11.0.0.0/8","NeedEncap":true})"));
  REQUIRE(route.as<SdnRoutePolicy>());
  CHECK(render_v2(route) ==
        json::parse(R"({"Type":"SDNRoute","Settings":{"DestinationPrefix":"11.0.0.0/8","NeedEncap":true}})"));
}

TEST_CASE("VSID: a subnet policy with IsolationId in v2, a VSID field in v1") {
  Policy vsid{VsidPolicy{4096}};
  CHECK(render_v2(vsid) == json::parse(R"({"Type":"VSID","Settings":{"IsolationId":4096}})"));
  CHECK(render_v1(vsid) == json::parse(R"({"Type":"VSID","VSID":4096})"));
  CHECK(vsid.scopes() == kSubnetScope);
  CHECK(Policy{VsidPolicy{4095}}.problem().find("4096") != std::string::npos);
}

TEST_CASE("either shape is accepted where a config may hold both") {
  auto v2 = parse_policy_any(json::parse(R"({"Type":"OutBoundNAT","Settings":{"Exceptions":["10.0.0.0/8"]}})"));
  auto v1 = parse_policy_any(json::parse(R"({"Type":"OutBoundNAT","ExceptionList":["10.0.0.0/8"]})"));
  CHECK(v1 == v2);
  auto nat = parse_policy_any(json::parse(R"({"Type":"NAT","InternalPort":53,"ExternalPort":53,"Protocol":"udp"})"));
  CHECK(nat.as<PortMappingPolicy>());
  auto mapping = parse_policy_any(json::parse(R"({"Type":"PortMapping","Settings":{"InternalPort":1,"Protocol":17}})"));
  CHECK(mapping.as<PortMappingPolicy>());
}

TEST_CASE("keys are read case-insensitively, as HNS and Go do") {
  auto policy = parse_policy_v2(json::parse(R"({"type":"outboundnat","settings":{"exceptions":["10.0.0.0/8"]}})"));
  REQUIRE(policy.as<OutboundNatPolicy>());
  CHECK(policy.as<OutboundNatPolicy>()->exceptions == std::vector<std::string>{"10.0.0.0/8"});
  CHECK(policy.type() == "OutBoundNAT");
}

TEST_CASE("types the model does not spell out pass through untouched") {
  json tier = json::parse(R"({"Type":"TierAcl","Settings":{"Name":"t","Order":1}})");
  Policy policy = parse_policy_v2(tier);
  REQUIRE(policy.as<OtherPolicy>());
  CHECK(policy.known());
  CHECK(render_v2(policy) == tier);
  CHECK(render_v1(policy) == json::parse(R"({"Type":"TierAcl","Name":"t","Order":1})"));
  CHECK(policy.required_feature() == Feature::TierAcl);

  Policy unknown = parse_policy_v2(json::parse(R"({"Type":"Teleport","Settings":{}})"));
  CHECK_FALSE(unknown.known());
  CHECK(unknown.type() == "Teleport");

  Policy elb = parse_policy_v1(json::parse(R"({"Type":"ELB","VIPs":["10.0.0.1"],"ILB":true})"));
  REQUIRE(elb.as<OtherPolicy>());
  CHECK(elb.as<OtherPolicy>()->settings == json::parse(R"({"VIPs":["10.0.0.1"],"ILB":true})"));
}

TEST_CASE("malformed settings raise a policy SchemaError") {
  auto kind_of = [](const char* text) {
    try {
      parse_policy_v2(json::parse(text));
    } catch (const SchemaError& error) {
      return error.kind();
    }
    FAIL("no SchemaError for " << text);
    return SchemaError::Kind::Type;
  };
  CHECK(kind_of(R"({"Type":"OutBoundNAT","Settings":{"Exceptions":"10.0.0.0/8"}})") == SchemaError::Kind::Policy);
  CHECK(kind_of(R"({"Type":"PortMapping","Settings":{"InternalPort":70000}})") == SchemaError::Kind::Policy);
  CHECK(kind_of(R"({"Type":"PortMapping","Settings":{"Protocol":"sctp"}})") == SchemaError::Kind::Policy);
  CHECK(kind_of(R"({"Settings":{}})") == SchemaError::Kind::Policy);
  CHECK(kind_of(R"(["OutBoundNAT"])") == SchemaError::Kind::Policy);
}

TEST_CASE("problems name what cannot work") {
  CHECK(Policy{OutboundNatPolicy{"", {"not-a-cidr"}, {}, 0, 0}}.problem().find("not-a-cidr") != std::string::npos);
  PortMappingPolicy sctp;
  sctp.protocol = IpProtocol{132};
  CHECK_FALSE(Policy{sctp}.problem().empty());
  CHECK(Policy{ProviderAddressPolicy{""}}.problem() == "ProviderAddress is required");
  CHECK(Policy{SdnRoutePolicy{"11.0.0.0/8", "", true}}.problem().empty());
  CHECK(Policy{DrMacAddressPolicy{"00-15-5D-00-00-01"}}.problem().empty());
  CHECK_FALSE(Policy{DrMacAddressPolicy{"00155D000001"}}.problem().empty());
  CHECK(Policy{VxlanPortPolicy{4789}}.required_feature() == Feature::VxlanPort);
}

TEST_CASE("protocol names as the CNI plugins accept them") {
  IpProtocol protocol;
  CHECK(parse_ip_protocol("UDP", protocol));
  CHECK(protocol.number == 17);
  CHECK(parse_ip_protocol("0x6", protocol));
  CHECK(protocol.number == 6);
  CHECK(parse_ip_protocol("58", protocol));
  CHECK_FALSE(parse_ip_protocol("256", protocol));
  CHECK_FALSE(parse_ip_protocol("sctp", protocol));
}

TEST_CASE("policy lists render and parse as arrays") {
  std::vector<Policy> policies{Policy{OutboundNatPolicy{"", {"10.0.0.0/8"}, {}, 0, 0}},
                               Policy{ProviderAddressPolicy{"10.0.0.4"}}};
  CHECK(parse_policies_v2(render_policies_v2(policies)) == policies);
  CHECK(parse_policies_v1(render_policies_v1(policies)) == policies);
}
