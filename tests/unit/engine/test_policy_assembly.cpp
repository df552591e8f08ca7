#include <doctest/doctest.h>

#include "addresses.hpp"
#include "cni_test_helpers.hpp"
#include "config/config_policy.hpp"
#include "plan/policy_assembly.hpp"

using namespace wincni;
using namespace wincni::engine;
using nlohmann::json;
using test::ip;
using test::prefix;

namespace {

std::vector<ConfigPolicy> config_policies(const char* text) {
  std::vector<std::string> warnings;
  return read_config_policies(json::parse(text), warnings);
}

json rendered(const PolicyInputs& inputs, HnsApi api = HnsApi::V2) {
  return render_policies(policies_for_api(assemble_endpoint_policies(inputs), api), api);
}

PortMapping mapping(std::uint16_t host, std::uint16_t container, std::uint32_t protocol,
                    std::optional<cni::IpAddress> host_ip = std::nullopt) {
  return PortMapping{host, container, hns::IpProtocol{protocol}, host_ip};
}
}  // namespace

TEST_CASE("one OutBoundNAT: the config's exceptions and ipMasqNetwork merged, deduplicated") {
  PolicyInputs inputs;
  inputs.config_policies = config_policies(R"({"policies":[
      {"name":"EndpointPolicy","value":{"Type":"OutBoundNAT","ExceptionList":["192.168.0.0/16","11.0.0.0/8"]}},
      {"name":"EndpointPolicy","value":{"Type":"ROUTE","DestinationPrefix":"11.0.0.0/8","NeedEncap":true}},
      {"name":"EndpointPolicy","value":{"Type":"OutBoundNAT","ExceptionList":["11.0.0.0/08","10.137.196.0/23"]}}]})");
  inputs.nat_exceptions = {prefix("10.244.0.0/16"), prefix("192.168.0.0/16")};
  CHECK(rendered(inputs) == json::parse(R"([
      {"Type":"OutBoundNAT","Settings":{"Exceptions":["192.168.0.0/16","11.0.0.0/8","10.137.196.0/23","10.244.0.0/16"]}},
      {"Type":"SDNRoute","Settings":{"DestinationPrefix":"11.0.0.0/8","NeedEncap":true}}])"));
  CHECK(rendered(inputs, HnsApi::V1) == json::parse(R"([
      {"Type":"OutBoundNAT","ExceptionList":["192.168.0.0/16","11.0.0.0/8","10.137.196.0/23","10.244.0.0/16"]},
      {"Type":"ROUTE","DestinationPrefix":"11.0.0.0/8","NeedEncap":true}])"));
}

TEST_CASE("ipMasq alone makes its own OutBoundNAT") {
  PolicyInputs inputs;
  inputs.nat_exceptions = {prefix("10.244.0.0/16")};
  CHECK(rendered(inputs) == json::parse(R"([{"Type":"OutBoundNAT","Settings":{"Exceptions":["10.244.0.0/16"]}}])"));
  // An empty exception list (NAT everything) takes the exception.
  inputs.config_policies =
      config_policies(R"({"policies":[{"name":"EndpointPolicy","value":{"Type":"OutBoundNAT","ExceptionList":[]}}]})");
  CHECK(rendered(inputs) == json::parse(R"([{"Type":"OutBoundNAT","Settings":{"Exceptions":["10.244.0.0/16"]}}])"));
}

TEST_CASE("OutBoundNATs that mean different things stay apart") {
  PolicyInputs inputs;
  inputs.config_policies = config_policies(R"({"AdditionalArgs":[
      {"Name":"EndpointPolicy","Value":{"Type":"OutBoundNAT","Settings":{"Exceptions":["192.168.0.0/16"]}}},
      {"Name":"EndpointPolicy","Value":{"Type":"OutBoundNAT","Settings":{"VirtualIP":"fc00::123","Destinations":["fd01::192"],"Exceptions":["fd03::100/120"]}}},
      {"Name":"EndpointPolicy","Value":{"Type":"OutBoundNAT","Settings":{"Exceptions":["10::0/120"]}}},
      {"Name":"EndpointPolicy","Value":{"Type":"OutBoundNAT","Settings":{"Exceptions":["fd04::/120"]}}},
      {"Name":"EndpointPolicy","Value":{"Type":"OutBoundNAT","Settings":{"Exceptions":["11.0.0.0/8"]}}}]})");
  inputs.nat_exceptions = {prefix("fd05::/64")};
  CHECK(rendered(inputs) == json::parse(R"([
      {"Type":"OutBoundNAT","Settings":{"Exceptions":["192.168.0.0/16","11.0.0.0/8"]}},
      {"Type":"OutBoundNAT","Settings":{"VirtualIP":"fc00::123","Destinations":["fd01::192"],"Exceptions":["fd03::100/120"]}},
      {"Type":"OutBoundNAT","Settings":{"Exceptions":["10::/120","fd04::/120","fd05::/64"]}}])"));
}

TEST_CASE("a policy given twice is applied once") {
  PolicyInputs inputs;
  inputs.config_policies = config_policies(R"({
      "policies":[{"name":"EndpointPolicy","value":{"Type":"ROUTE","DestinationPrefix":"11.0.0.0/8","NeedEncap":true}}],
      "AdditionalArgs":[{"Name":"EndpointPolicy","Value":{"Type":"SDNRoute","Settings":{"DestinationPrefix":"11.0.0.0/8","NeedEncap":true}}},
                        {"Name":"NetworkPolicy","Value":{"Type":"NetAdapterName","Settings":{"NetworkAdapterName":"Ethernet"}}}]})");
  auto policies = assemble_endpoint_policies(inputs);
  REQUIRE(policies.size() == 1);  // and the network policy is not the endpoint's
  CHECK(policies[0].origin == "policies[0]");
}

TEST_CASE("port mappings: per family, local-routed, with an ACL when asked") {
  PolicyInputs inputs;
  inputs.pod_addresses = {ip("10.244.1.5"), ip("fd00::105")};
  inputs.port_mappings = {mapping(8080, 80, 6), mapping(53, 53, 17, ip("192.168.1.2"))};
  inputs.local_routed_port_mapping = true;
  inputs.allow_acl_port_mapping = true;
  CHECK(rendered(inputs) == json::parse(R"([
      {"Type":"PortMapping","Settings":{"Protocol":6,"InternalPort":80,"ExternalPort":8080,"Flags":1}},
      {"Type":"PortMapping","Settings":{"Protocol":6,"InternalPort":80,"ExternalPort":8080,"Flags":3}},
      {"Type":"ACL","Settings":{"Protocols":"6","Action":"Allow","Direction":"In","LocalPorts":"80","Priority":1000}},
      {"Type":"PortMapping","Settings":{"Protocol":17,"InternalPort":53,"ExternalPort":53,"VIP":"192.168.1.2","Flags":1}},
      {"Type":"ACL","Settings":{"Protocols":"17","Action":"Allow","Direction":"In","LocalPorts":"53","Priority":1000}}])"));
}

TEST_CASE("port mappings in HNS v1: NAT policies; a VIP has no v1 form") {
  PolicyInputs inputs;
  inputs.pod_addresses = {ip("10.244.1.5")};
  inputs.port_mappings = {mapping(8080, 80, 6)};
  CHECK(rendered(inputs, HnsApi::V1) ==
        json::parse(R"([{"Type":"NAT","Protocol":"tcp","InternalPort":80,"ExternalPort":8080}])"));

  inputs.port_mappings = {mapping(8080, 80, 6), mapping(8081, 81, 6, ip("192.168.1.2"))};
  auto error = test::thrown_error([&] { rendered(inputs, HnsApi::V1); });
  CHECK(error.code() == cni::kUnsupportedField);
  CHECK(error.msg() ==
        "runtimeConfig.portMappings[1]: PortMapping "
        "{\"ExternalPort\":8081,\"InternalPort\":81,\"Protocol\":6,\"VIP\":\"192.168.1.2\"} cannot be "
        "expressed in HNS v1 (apiVersion 1); set \"apiVersion\": 2");
}

TEST_CASE("loopback DSR: one OutBoundNAT with the pod's IPv4 address, last but the provider address") {
  PolicyInputs inputs;
  inputs.pod_addresses = {ip("10.244.1.5"), ip("fd00::105")};
  inputs.loopback_dsr = true;
  inputs.nat_exceptions = {prefix("10.244.0.0/16")};
  inputs.provider_address = ip("10.0.133.170");
  CHECK(rendered(inputs) == json::parse(R"([
      {"Type":"OutBoundNAT","Settings":{"Exceptions":["10.244.0.0/16"]}},
      {"Type":"OutBoundNAT","Settings":{"Destinations":["10.244.1.5"]}},
      {"Type":"ProviderAddress","Settings":{"ProviderAddress":"10.0.133.170"}}])"));
  CHECK(rendered(inputs, HnsApi::V1) == json::parse(R"([
      {"Type":"OutBoundNAT","ExceptionList":["10.244.0.0/16"]},
      {"Type":"OutBoundNAT","Destinations":["10.244.1.5"]},
      {"Type":"PA","PA":"10.0.133.170"}])"));

  inputs.pod_addresses = {ip("fd00::105")};
  auto error = test::thrown_error([&] { assemble_endpoint_policies(inputs); });
  CHECK(error.code() == cni::kUnsupportedField);
  CHECK(error.msg() == "loopbackDSR needs an IPv4 address on the endpoint");
}

TEST_CASE("nothing to apply is an empty list") {
  CHECK(rendered(PolicyInputs{}) == json::array());
  CHECK(rendered(PolicyInputs{}, HnsApi::V1) == json::array());
}
