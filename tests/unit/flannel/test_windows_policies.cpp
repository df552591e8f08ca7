// The Windows policies flannel generates, and how they merge with what the
// user wrote: what every deployment templated by hand (docs/flannel.md).

#include <doctest/doctest.h>

#include "addresses.hpp"
#include "fixture_configs.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/flannel/windows_policies.hpp"

using namespace wincni;
using flannel::Backend;
using flannel::generated_policies;
using flannel::merge_generated_policies;
using flannel::PolicySources;
using nlohmann::json;
using test::ip;
using test::prefix;

namespace {

PolicySources host_gw() {
  return PolicySources{Backend::HostGw, {prefix("10.244.0.0/16")}, {prefix("10.96.0.0/12")}, ip("10.137.198.27")};
}

json merged(json delegate, const PolicySources& sources, engine::HnsApi api = engine::HnsApi::V2) {
  merge_generated_policies(delegate, generated_policies(sources), api);
  return delegate;
}

}  // namespace

TEST_CASE(
    "host-gw, HCN: the exceptions, the service route and the node's /32 route, as sig-windows-tools templated them") {
  CHECK(merged(json::object(), host_gw())["policies"] == json::parse(R"([
    {"name":"EndpointPolicy","value":{"Type":"OutBoundNAT","Settings":{"Exceptions":["10.244.0.0/16","10.96.0.0/12","10.137.198.27/32"]}}},
    {"name":"EndpointPolicy","value":{"Type":"SDNRoute","Settings":{"DestinationPrefix":"10.96.0.0/12","NeedEncap":true}}},
    {"name":"EndpointPolicy","value":{"Type":"SDNRoute","Settings":{"DestinationPrefix":"10.137.198.27/32","NeedEncap":true}}}])"));
}

TEST_CASE("host-gw, HNS v1: the same in v1's shape (ExceptionList, ROUTE)") {
  CHECK(merged(json::object(), host_gw(), engine::HnsApi::V1)["policies"] == json::parse(R"([
    {"name":"EndpointPolicy","value":{"Type":"OutBoundNAT","ExceptionList":["10.244.0.0/16","10.96.0.0/12","10.137.198.27/32"]}},
    {"name":"EndpointPolicy","value":{"Type":"ROUTE","DestinationPrefix":"10.96.0.0/12","NeedEncap":true}},
    {"name":"EndpointPolicy","value":{"Type":"ROUTE","DestinationPrefix":"10.137.198.27/32","NeedEncap":true}}])"));
}

TEST_CASE("vxlan: the exceptions, the service route and the provider address; no node route") {
  const PolicySources sources{Backend::Vxlan, {prefix("10.244.0.0/16")}, {prefix("10.96.0.0/12")}, ip("192.0.2.4")};
  CHECK(merged(json::object(), sources)["policies"] == json::parse(R"([
    {"name":"EndpointPolicy","value":{"Type":"OutBoundNAT","Settings":{"Exceptions":["10.244.0.0/16","10.96.0.0/12"]}}},
    {"name":"EndpointPolicy","value":{"Type":"SDNRoute","Settings":{"DestinationPrefix":"10.96.0.0/12","NeedEncap":true}}},
    {"name":"EndpointPolicy","value":{"Type":"ProviderAddress","Settings":{"ProviderAddress":"192.0.2.4"}}}])"));
}

TEST_CASE("dual stack: one OutBoundNAT per family") {
  const PolicySources sources{Backend::HostGw,
                              {prefix("10.244.0.0/16"), prefix("fd00:10:244::/56")},
                              {prefix("10.96.0.0/12"), prefix("fd00:10:96::/112")},
                              ip("10.0.0.4")};
  const json policies = merged(json::object(), sources)["policies"];
  REQUIRE(policies.size() == 5);
  CHECK(policies[0]["value"]["Settings"]["Exceptions"] ==
        json::parse(R"(["10.244.0.0/16","10.96.0.0/12","10.0.0.4/32"])"));
  CHECK(policies[1]["value"]["Settings"]["Exceptions"] == json::parse(R"(["fd00:10:244::/56","fd00:10:96::/112"])"));
}

TEST_CASE(
    "what the user wrote is kept and never duplicated: the reference's hand-templated fixture gains only what it "
    "lacks") {
  json delegate = json::parse(test::fixture_config("ref-flannel-win-bridge-v2.conf"))["delegate"];
  const json before = delegate;
  // Its exceptions hold 192.168.0.0/16 and 11.0.0.0/8, its routes 11.0.0.0/8 and the node's /32.
  const PolicySources sources{Backend::HostGw, {prefix("192.168.0.0/16")}, {prefix("11.0.0.0/8")}, ip("10.137.198.27")};
  merge_generated_policies(delegate, generated_policies(sources), engine::HnsApi::V2);
  CHECK(delegate["policies"].size() == 4);
  // Only the node's own address as an exception was missing.
  CHECK(
      delegate["policies"][3] ==
      json::parse(
          R"({"name":"EndpointPolicy","value":{"Type":"OutBoundNAT","Settings":{"Exceptions":["10.137.198.27/32"]}}})"));
  merge_generated_policies(delegate, generated_policies(sources), engine::HnsApi::V2);
  CHECK(delegate["policies"].size() == 4);  // merging again adds nothing
}

TEST_CASE("Microsoft's AdditionalArgs stay where they are, and the generated ones join them in that spelling") {
  json delegate = json::parse(test::with_plain_spaces(test::fixture_config("ms-flannel_l2bridge.conf")))["delegate"];
  const PolicySources sources{Backend::HostGw, {prefix("10.244.0.0/16")}, {prefix("10.96.0.0/12")}, ip("10.132.34.98")};
  merge_generated_policies(delegate, generated_policies(sources), engine::HnsApi::V2);
  CHECK_FALSE(delegate.contains("policies"));
  REQUIRE(delegate["AdditionalArgs"].size() == 4);
  CHECK(
      delegate["AdditionalArgs"][3] ==
      json::parse(
          R"({"Name":"EndpointPolicy","Value":{"Type":"OutBoundNAT","Settings":{"Exceptions":["10.132.34.98/32"]}}})"));
}

TEST_CASE("a v1 ExceptionList and an address without /32 count as covering") {
  json delegate = json::parse(R"({"policies":[
    {"name":"EndpointPolicy","value":{"Type":"OutBoundNAT","ExceptionList":["10.244.0.0/16","10.96.0.0/12","10.0.0.4"]}},
    {"name":"EndpointPolicy","value":{"Type":"ROUTE","DestinationPrefix":"10.96.0.0/12","NeedEncap":true}},
    {"name":"EndpointPolicy","value":{"Type":"ROUTE","DestinationPrefix":"10.0.0.4/32","NeedEncap":true}}]})");
  const json before = delegate;
  PolicySources sources = host_gw();
  sources.node_ip = ip("10.0.0.4");
  merge_generated_policies(delegate, generated_policies(sources), engine::HnsApi::V1);
  CHECK(delegate == before);
}

TEST_CASE("the user's policies that do not read are the user's error, code 7") {
  json delegate = json::parse(R"({"policies":[{"name":"EndpointPolicy","value":{"Type":"NoSuchPolicy"}}]})");
  try {
    merge_generated_policies(delegate, generated_policies(host_gw()), engine::HnsApi::V2);
    FAIL("no error");
  } catch (const cni::Error& e) {
    CHECK(e.code() == 7);
  }
}
