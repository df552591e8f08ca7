#include <doctest/doctest.h>

#include "cni_test_helpers.hpp"
#include "config/config_policy.hpp"

using namespace wincni;
using namespace wincni::engine;
using nlohmann::json;

namespace {
std::vector<ConfigPolicy> read(const char* text) {
  std::vector<std::string> warnings;
  return read_config_policies(json::parse(text), warnings);
}
std::string policy_error_of(const char* text) {
  return test::thrown_error([&] { read(text); }).msg();
}
}  // namespace

TEST_CASE("both dialects and both shapes read into one model") {
  auto policies = read(R"({
    "policies":[
      {"name":"EndpointPolicy","value":{"Type":"OutBoundNAT","ExceptionList":["10.0.0.0/8"]}},
      {"name":"EndpointPolicy","value":{"Type":"ROUTE","DestinationPrefix":"11.0.0.0/8","NeedEncap":true}}],
    "AdditionalArgs":[
      {"Name":"EndpointPolicy","Value":{"Type":"OutBoundNAT","Settings":{"Exceptions":["10.0.0.0/8"]}}},
      {"Name":"EndpointPolicy","Value":{"Type":"SDNRoute","Settings":{"DestinationPrefix":"11.0.0.0/8","NeedEncap":true}}},
      {"Name":"NetworkPolicy","Value":{"Type":"NetAdapterName","Settings":{"NetworkAdapterName":"Ethernet"}}}]})");
  REQUIRE(policies.size() == 5);
  CHECK(policies[0].origin == "policies[0]");
  CHECK(policies[2].origin == "AdditionalArgs[0]");
  // v1 and v2 shapes of the same policy are the same policy.
  CHECK(policies[0].policy == policies[2].policy);
  CHECK(policies[1].policy == policies[3].policy);
  const auto* route = policies[1].policy.as<hns::SdnRoutePolicy>();
  REQUIRE(route);
  CHECK(route->need_encap);
  CHECK(policies[4].target == PolicyTarget::Network);
}

TEST_CASE("entry keys and kinds match in any case") {
  auto policies = read(R"({"Policies":[{"Name":"endpointpolicy","Value":{"Type":"outboundnat","ExceptionList":[]}}]})");
  REQUIRE(policies.size() == 1);
  CHECK(policies[0].policy.as<hns::OutboundNatPolicy>());
}

TEST_CASE("nothing is dropped silently") {
  CHECK(policy_error_of(R"({"policies":[{"name":"OutBoundNatPolicy","value":{"Type":"OutBoundNAT"}}]})") ==
        "policies[0]: unknown kind \"OutBoundNatPolicy\" (expected EndpointPolicy or NetworkPolicy)");
  CHECK(policy_error_of(R"({"policies":[{"name":"EndpointPolicy","value":{"Type":"Teleport"}}]})") ==
        "policies[0]: HNS has no policy type \"Teleport\"");
  // A field the type does not have would vanish on the way to HNS.
  CHECK(
      policy_error_of(
          R"({"AdditionalArgs":[{"Name":"EndpointPolicy","Value":{"Type":"OutBoundNAT","Settings":{"DestinationPrefix":"10.0.0.0/8"}}}]})") ==
      "AdditionalArgs[0]: OutBoundNAT has no field \"DestinationPrefix\" in the v2 ({\"Type\",\"Settings\":{...}}) "
      "shape");
  CHECK(policy_error_of(
            R"({"policies":[{"name":"EndpointPolicy","value":{"Type":"OutBoundNAT","Exceptions":["10.0.0.0/8"]}}]})") ==
        "policies[0]: OutBoundNAT has no field \"Exceptions\" in the v1 (flat) shape");
  CHECK(policy_error_of(
            R"({"policies":[{"name":"EndpointPolicy","value":{"Type":"VxlanPort","Settings":{"Port":4789}}}]})") ==
        "policies[0]: VxlanPort is not an endpoint policy");
  CHECK(
      policy_error_of(
          R"({"AdditionalArgs":[{"Name":"NetworkPolicy","Value":{"Type":"PortMapping","Settings":{"Protocol":6,"InternalPort":1,"ExternalPort":1}}}]})") ==
      "AdditionalArgs[0]: PortMapping is not a network policy");
}

TEST_CASE("unusable settings are errors naming the entry") {
  // Microsoft's overlay example keeps a placeholder here.
  CHECK(
      policy_error_of(
          R"({"AdditionalArgs":[{"Name":"EndpointPolicy","Value":{"Type":"ProviderAddress","Settings":{"ProviderAddress":"ip of host"}}}]})") ==
      "AdditionalArgs[0]: ProviderAddress: ProviderAddress \"ip of host\" is not an IP address");
  CHECK(
      policy_error_of(
          R"({"policies":[{"name":"EndpointPolicy","value":{"Type":"OutBoundNAT","ExceptionList":["{{X}}/32"]}}]})") ==
      "policies[0]: OutBoundNAT: exception \"{{X}}/32\" is neither an IP address nor a prefix");
  CHECK(policy_error_of(R"({"policies":[{"name":"EndpointPolicy","value":{"Type":"ROUTE","NeedEncap":"yes"}}]})")
            .starts_with("policies[0]: "));
  CHECK(policy_error_of(R"({"policies":[{"name":"EndpointPolicy","value":"OutBoundNAT"}]})") ==
        "policies[0]: the policy must be an object, not string");
  CHECK(policy_error_of(R"({"policies":[{"value":{}}]})") ==
        "policies[0]: has no \"name\" (EndpointPolicy or NetworkPolicy)");
  CHECK(policy_error_of(R"({"policies":[{"name":"EndpointPolicy"}]})") == "policies[0]: has no \"value\"");
  CHECK(policy_error_of(R"({"policies":{}})") == "policies: must be an array, not object");
  CHECK(test::thrown_error([] { read(R"({"policies":[1]})"); }).code() == cni::kInvalidNetworkConfig);
}

TEST_CASE("empty values do not count as unread fields") {
  auto policies = read(R"({"policies":[{"name":"EndpointPolicy","value":{"Type":"OutBoundNAT","OtherList":[]}}]})");
  CHECK(policies.size() == 1);
}

// OpenShift's hybrid-overlay template (openshift/windows-machine-config-operator,
// the win-overlay CNI config): every policy writes every field, empty where
// unused, and OutBoundNAT's exceptions under their v1 name inside Settings.
TEST_CASE(
    "a template's empty fields are ignored; ExceptionList inside v2 Settings is read as Exceptions, with a warning") {
  std::vector<std::string> warnings;
  auto policies = read_config_policies(json::parse(R"({"Policies":[
      {"Name":"EndpointPolicy","Value":{"Type":"OutBoundNAT","Settings":{"ExceptionList":["172.30.0.0/16"],
                                        "DestinationPrefix":"","NeedEncap":false}}},
      {"Name":"EndpointPolicy","Value":{"Type":"SDNROUTE","Settings":{"ExceptionList":[],
                                        "DestinationPrefix":"172.30.0.0/16","NeedEncap":true}}}]})"),
                                       warnings);
  REQUIRE(policies.size() == 2);
  REQUIRE(policies[0].policy.as<hns::OutboundNatPolicy>() != nullptr);
  CHECK(policies[0].policy.as<hns::OutboundNatPolicy>()->exceptions == std::vector<std::string>{"172.30.0.0/16"});
  REQUIRE(policies[1].policy.as<hns::SdnRoutePolicy>() != nullptr);
  CHECK(policies[1].policy.as<hns::SdnRoutePolicy>()->need_encap);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("ExceptionList") != std::string::npos);
  // Both names at once: which one the operator meant is not for us to guess.
  CHECK(policy_error_of(R"({"policies":[{"name":"EndpointPolicy","value":{"Type":"OutBoundNAT","Settings":
                     {"ExceptionList":["10.0.0.0/8"],"Exceptions":["11.0.0.0/8"]}}}]})") ==
        "policies[0]: OutBoundNAT has both \"Exceptions\" and its v1 name \"ExceptionList\"");
}
