// The HCN (v2) and HNS (v1) objects: JSON round trips and case-insensitive
// reading of HNS output (the mapping between the two APIs is the
// emulator's: tests/unit/hns-emulator/test_v1_views.cpp).

#include <doctest/doctest.h>

#include "wincni/hns/mac_address.hpp"
#include "wincni/hns/schema/hcn.hpp"
#include "wincni/hns/schema/hns_v1.hpp"
#include "wincni/hns/schema/json_io.hpp"
#include "wincni/hns/schema/schema_error.hpp"

using namespace wincni::hns;
using nlohmann::json;
using wincni::cni::IpAddress;
using wincni::cni::IpPrefix;

namespace {

const char* kOverlayNetwork = R"({
  "ID": "5A0B3C1D-0000-4000-8000-000000000001",
  "Name": "vxlan0",
  "Type": "Overlay",
  "Policies": [{"Type":"NetAdapterName","Settings":{"NetworkAdapterName":"Ethernet"}},
               {"Type":"VxlanPort","Settings":{"Port":4789}}],
  "MacPool": {"Ranges": [{"StartMacAddress":"00-15-5D-52-C0-00","EndMacAddress":"00-15-5D-52-CF-FF"}]},
  "Dns": {"ServerList": ["10.96.0.10"], "Search": ["svc.cluster.local"]},
  "Ipams": [{"Type":"Static","Subnets":[{"IpAddressPrefix":"10.244.1.0/24",
             "Policies":[{"Type":"VSID","Settings":{"IsolationId":4096}}],
             "Routes":[{"NextHop":"10.244.1.1","DestinationPrefix":"0.0.0.0/0"}]}]}],
  "Flags": 8,
  "SchemaVersion": {"Major":2,"Minor":0}
})";

}  // namespace

TEST_CASE("HostComputeNetwork round trip") {
  json input = json::parse(kOverlayNetwork);
  auto network = HostComputeNetwork::from_json(input);
  CHECK(network.name == "vxlan0");
  CHECK(network.type == NetworkType::Overlay);
  CHECK(network.flags == HostComputeNetwork::kEnableNonPersistent);
  REQUIRE(network.subnets().size() == 1);
  CHECK(network.subnets()[0]->ip_address_prefix == *IpPrefix::parse("10.244.1.0/24"));
  CHECK(network.subnets()[0]->gateway() == IpAddress::parse("10.244.1.1"));
  REQUIRE(network.find_policy<VxlanPortPolicy>());
  CHECK(network.find_policy<VxlanPortPolicy>()->port == 4789);
  CHECK(network.to_json() == input);
  CHECK(HostComputeNetwork::from_json(network.to_json()) == network);
}

TEST_CASE("HNS output is read case-insensitively and NAT is the type HNS leaves out") {
  auto network =
      HostComputeNetwork::from_json(json::parse(R"({"Id":"5a0b3c1d-0000-4000-8000-000000000001","name":"nat"})"));
  CHECK(network.id.str() == "5A0B3C1D-0000-4000-8000-000000000001");
  CHECK(network.name == "nat");
  CHECK(network.type == NetworkType::NAT);
  CHECK_FALSE(network.to_json().contains("Type"));
  CHECK(parse_network_type("l2bridge") == NetworkType::L2Bridge);
  CHECK_FALSE(parse_network_type("bridge"));
}

TEST_CASE("schema errors say which field and why") {
  auto kind_of = [](const char* text) {
    try {
      HostComputeNetwork::from_json(json::parse(text));
    } catch (const SchemaError& error) {
      return error.kind();
    }
    FAIL("no SchemaError for " << text);
    return SchemaError::Kind::Type;
  };
  CHECK(kind_of(R"({"Name":"x","Type":"Bridge"})") == SchemaError::Kind::NetworkType);
  CHECK(kind_of(R"({"Name":5})") == SchemaError::Kind::Type);
  CHECK(kind_of(R"({"ID":"not-a-guid"})") == SchemaError::Kind::Value);
  CHECK(kind_of(R"({"Ipams":[{"Subnets":[{"IpAddressPrefix":"10.0.0.0/33"}]}]})") == SchemaError::Kind::Address);
  CHECK(kind_of(R"({"Ipams":[{"Subnets":[{}]}]})") == SchemaError::Kind::Address);
  CHECK(kind_of(R"({"Flags":"EnableNonPersistent"})") == SchemaError::Kind::Type);
  CHECK(kind_of(R"({"Policies":[{"Type":"VxlanPort","Settings":{"Port":"x"}}]})") == SchemaError::Kind::Policy);
  try {
    HostComputeNetwork::from_json(json::parse(R"({"Name":5})"));
  } catch (const SchemaError& error) {
    CHECK(std::string(error.what()) == "\"Name\": expected a string");
  }
}

TEST_CASE("HostComputeEndpoint round trip") {
  json input = json::parse(R"({
    "ID":"5A0B3C1D-0000-4000-8000-0000000000E1","Name":"abc_cbr0",
    "HostComputeNetwork":"5A0B3C1D-0000-4000-8000-000000000001",
    "Policies":[{"Type":"OutBoundNAT","Settings":{"Exceptions":["10.244.0.0/16"]}}],
    "IpConfigurations":[{"IpAddress":"10.244.1.5","PrefixLength":24}],
    "Dns":{"Domain":"cluster.local","ServerList":["10.96.0.10"]},
    "Routes":[{"NextHop":"10.244.1.2","DestinationPrefix":"0.0.0.0/0"}],
    "MacAddress":"00-15-5D-52-C0-01","Flags":0,"SchemaVersion":{"Major":2,"Minor":0}})");
  auto endpoint = HostComputeEndpoint::from_json(input);
  CHECK(endpoint.ip_configurations.at(0).ip_address == *IpAddress::parse("10.244.1.5"));
  CHECK(endpoint.ip_configurations.at(0).prefix_length == 24);
  CHECK(endpoint.host_compute_namespace.is_null());
  CHECK(endpoint.to_json() == input);
  CHECK_THROWS_AS(HostComputeEndpoint::from_json(json::parse(R"({"IpConfigurations":[{"IpAddress":"10.0.0.300"}]})")),
                  SchemaError);
  CHECK_THROWS_AS(HostComputeEndpoint::from_json(
                      json::parse(R"({"IpConfigurations":[{"IpAddress":"10.0.0.3","PrefixLength":40}]})")),
                  SchemaError);
}

TEST_CASE("HostComputeNamespace round trip and its endpoints") {
  json input = json::parse(R"({"ID":"5A0B3C1D-0000-4000-8000-0000000000A1","NamespaceId":7,"Type":"Host",
    "Resources":[{"Type":"Endpoint","Data":{"ID":"5A0B3C1D-0000-4000-8000-0000000000E1"}},
                 {"Type":"Container","Data":{"ID":"5A0B3C1D-0000-4000-8000-0000000000C1"}}],
    "SchemaVersion":{"Major":2,"Minor":0}})");
  auto ns = HostComputeNamespace::from_json(input);
  CHECK(ns.endpoint_ids() == std::vector<Guid>{*Guid::parse("5A0B3C1D-0000-4000-8000-0000000000E1")});
  CHECK_FALSE(ns.is_default());
  CHECK(ns.to_json() == input);
}

TEST_CASE("queries carry the filter as a JSON string") {
  HostComputeQuery query;
  query.filter = {{"Name", "cbr0"}};
  CHECK(query.str() == R"({"Filter":"{\"Name\":\"cbr0\"}","SchemaVersion":{"Major":2,"Minor":0}})");
  auto back = HostComputeQuery::from_json(query.to_json());
  CHECK(back.filter == query.filter);
  CHECK(HostComputeQuery{}.str() == R"({"SchemaVersion":{"Major":2,"Minor":0}})");
  CHECK_THROWS_AS(HostComputeQuery::from_json(json::parse(R"({"Filter":"{not json"})")), SchemaError);
}

TEST_CASE("modify requests for namespaces and policies") {
  Guid endpoint = *Guid::parse("5A0B3C1D-0000-4000-8000-0000000000E1");
  CHECK(
      namespace_endpoint_request(RequestType::Add, endpoint).to_json() ==
      json::parse(
          R"({"ResourceType":"Endpoint","RequestType":"Add","Settings":{"EndpointId":"5A0B3C1D-0000-4000-8000-0000000000E1"}})"));
  auto request = ModifyRequest::from_json(policy_request(RequestType::Remove, {Policy{HostRoutePolicy{}}}).to_json());
  CHECK(request.request_type == RequestType::Remove);
  CHECK(request.settings["Policies"][0]["Type"] == "HostRoute");
  CHECK_THROWS_AS(ModifyRequest::from_json(json::parse(R"({"RequestType":"Explode"})")), SchemaError);
}

TEST_CASE("HNSNetwork round trip") {
  json input = json::parse(R"({"ID":"5A0B3C1D-0000-4000-8000-000000000002","Name":"cbr0","Type":"L2Bridge",
    "NetworkAdapterName":"Ethernet","Subnets":[{"AddressPrefix":"10.244.1.0/24","GatewayAddress":"10.244.1.1"}],
    "DNSServerList":"10.96.0.10,8.8.8.8","ManagementIP":"192.0.2.4"})");
  auto network = HnsNetwork::from_json(input);
  CHECK(network.management_ip == IpAddress::parse("192.0.2.4"));
  CHECK(network.to_json() == input);
}

TEST_CASE("HNSEndpoint round trip") {
  json input = json::parse(R"({"ID":"5A0B3C1D-0000-4000-8000-0000000000E2","Name":"cbr0_ep",
    "VirtualNetwork":"5A0B3C1D-0000-4000-8000-000000000002","VirtualNetworkName":"cbr0",
    "Policies":[{"Type":"PA","PA":"10.0.0.4"}],"MacAddress":"00-15-5D-52-C0-00","IPAddress":"10.244.1.2",
    "GatewayAddress":"10.244.1.1","PrefixLength":24,"SharedContainers":["abc"],"State":2,
    "Namespace":{"ID":"5A0B3C1D-0000-4000-8000-0000000000A1"}})");
  auto endpoint = HnsEndpoint::from_json(input);
  CHECK(endpoint.state == EndpointState::Attached);
  CHECK(endpoint.to_json() == input);
  CHECK_THROWS_AS(HnsEndpoint::from_json(json::parse(R"({"State":9})")), SchemaError);
}

TEST_CASE("the HNSCall envelope") {
  auto envelope = HnsEnvelope::from_json(json::parse(R"({"success":false,"error":"The endpoint was not found. "})"));
  CHECK_FALSE(envelope.success);
  CHECK(envelope.error == "The endpoint was not found. ");
  CHECK(HnsEnvelope::ok(json{{"Major", 15}}).to_json() == json::parse(R"({"Success":true,"Output":{"Major":15}})"));
}

// Shapes real hosts print that the emulator does not: "Type":"nat" in lower
// case, every network with its own MacPools and an empty Policies list
// (microsoft/SDN#269); lower-case GUIDs on 2018-era builds (microsoft/SDN#227);
// MAC addresses echoed as the client sent them, in either case and with
// colons (projectcalico/calico#4682, microsoft/SDN#227); a namespace's
// resources with Data.Id; an endpoint attached to nothing with an empty or
// missing HostComputeNamespace (antrea-io/antrea#2306).
TEST_CASE("readers take every shape real hosts print") {
  const HnsNetwork nat =
      HnsNetwork::from_json(json::parse(R"({"ActivityId":"a","ID":"8f1b5e2a-58d1-4c7a-9e0b-0f2c1d3e4a5b",
    "Name":"nat","Type":"nat","Policies":[],"MacPools":[{"StartMacAddress":"00-15-5D-F1-B0-00",
    "EndMacAddress":"00-15-5D-F1-BF-FF"}],"Subnets":[{"AddressPrefix":"172.17.224.0/20","GatewayAddress":"172.17.224.1"}]})"));
  CHECK(nat.type == NetworkType::NAT);
  CHECK(nat.id.str() == "8F1B5E2A-58D1-4C7A-9E0B-0F2C1D3E4A5B");
  CHECK(nat.mac_pools.size() == 1);

  for (const char* mac : {"0E-2A-0a-01-12-43", "00:11:22:33:44:55", "02-11-0a-f0-00-0b"}) {
    CAPTURE(mac);
    json endpoint = {{"ID", "1a2b3c4d-0000-4000-8000-00000000e001"},
                     {"Name", "pod_cbr0"},
                     {"VirtualNetwork", "8f1b5e2a-58d1-4c7a-9e0b-0f2c1d3e4a5b"},
                     {"MacAddress", mac},
                     {"IPAddress", "10.244.1.5"}};
    const HnsEndpoint v1 = HnsEndpoint::from_json(endpoint);
    CHECK(v1.virtual_network == *Guid::parse("8F1B5E2A-58D1-4C7A-9E0B-0F2C1D3E4A5B"));
    CHECK(MacAddress::parse(v1.mac_address));
  }

  const HostComputeNamespace ns =
      HostComputeNamespace::from_json(json::parse(R"({"ID":"5a0b3c1d-0000-4000-8000-0000000000a1",
    "NamespaceId":7,"Type":"HostDefault","Resources":[{"Type":"Endpoint","Data":{"Id":"1a2b3c4d-0000-4000-8000-00000000e001"}}],
    "SchemaVersion":{"Major":2,"Minor":0}})"));
  REQUIRE(ns.endpoint_ids().size() == 1);
  CHECK(ns.endpoint_ids()[0] == *Guid::parse("1A2B3C4D-0000-4000-8000-00000000E001"));

  for (const char* attached_to_nothing : {R"({"ID":"1a2b3c4d-0000-4000-8000-00000000e001","HostComputeNamespace":""})",
                                          R"({"ID":"1a2b3c4d-0000-4000-8000-00000000e001"})",
                                          R"({"ID":"1a2b3c4d-0000-4000-8000-00000000e001",
                                              "HostComputeNamespace":"00000000-0000-0000-0000-000000000000"})"}) {
    CAPTURE(attached_to_nothing);
    CHECK(HostComputeEndpoint::from_json(json::parse(attached_to_nothing)).host_compute_namespace.is_null());
  }
}

// Found by tests/fuzz (hns_schema, emulator): nlohmann parses any depth, but
// copying the document recurses once a level, so a deep enough request
// overflowed the emulator's stack.
TEST_CASE("JSON nested deeper than 1000 levels is a schema error, not a stack overflow") {
  const auto nested = [](int levels) {
    return R"({"Name":"n","x":)" + std::string(static_cast<size_t>(levels - 1), '[') +
           std::string(static_cast<size_t>(levels - 1), ']') + "}";
  };
  CHECK_NOTHROW(json_io::parse_object(nested(1000), "settings"));
  CHECK_THROWS_AS(json_io::parse_object(nested(1001), "settings"), SchemaError);
  CHECK_THROWS_AS(json_io::parse_object(nested(200'000), "settings"), SchemaError);
}
