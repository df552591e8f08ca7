#include <doctest/doctest.h>

#include "addresses.hpp"
#include "cni_test_helpers.hpp"
#include "fixture_configs.hpp"
#include "flannel_delegate.hpp"
#include "config/endpoint_config.hpp"

using namespace wincni;
using namespace wincni::engine;
using nlohmann::json;
using test::ip;
using test::prefix;

namespace {
EndpointConfig parse(std::string_view text) { return read_endpoint_config(cni::NetConf::parse(text)); }
EndpointConfig parse_json(const json& config) { return read_endpoint_config(cni::NetConf::from_json(config)); }
std::string config_error_of(const char* text) {
  return test::thrown_error([&] { parse(text); }).msg();
}
}  // namespace

TEST_CASE("the legacy wincni example") {
  auto config = parse(test::fixture_config("legacy-wincni-l2bridge.conf"));
  CHECK(config.network == "l2bridge");
  CHECK_FALSE(config.api);
  CHECK(config.ipam_type.empty());  // HNS assigns the address
  CHECK(config.dns.nameservers == std::vector<std::string>{"11.0.0.10"});
  REQUIRE(config.policies.size() == 3);
  CHECK(config.policies[0].origin == "AdditionalArgs[0]");
  CHECK(config.policies[0].policy.as<hns::OutboundNatPolicy>()->exceptions.size() == 3);
  CHECK(config.policies[2].policy.as<hns::SdnRoutePolicy>()->destination_prefix == "10.127.132.213/32");
  CHECK(config.gateways.for_address(ip("10.10.187.70")) == ip("10.10.187.66"));
  REQUIRE(config.blueprint);
  CHECK(config.blueprint->adapter == "Ethernet");
  CHECK(config.blueprint->subnets == std::vector<cni::IpPrefix>{prefix("10.10.187.64/26")});
}

TEST_CASE("the reference's win-bridge example (HNS v1 shape)") {
  auto config = parse(test::fixture_config("ref-win-bridge-v1.conf"));
  CHECK(config.network == "cbr0");
  CHECK(config.loopback_dsr);
  CHECK_FALSE(config.blueprint);  // it says nothing of how to create cbr0
  REQUIRE(config.policies.size() == 3);
  CHECK(config.policies[1].policy.as<hns::SdnRoutePolicy>()->need_encap);
  CHECK(config.dns.search == std::vector<std::string>{"svc.cluster.local"});
}

TEST_CASE("flannel's delegates: the reference's (v2) and Microsoft's (sdnbridge)") {
  auto ref = parse_json(
      test::flannel_delegate(test::fixture_config("ref-flannel-win-bridge-v2.conf"), "10.244.1.0/24", "10.244.0.0/16"));
  CHECK(ref.api == HnsApi::V2);
  CHECK(ref.ip_masq);
  CHECK(ref.ip_masq_network == prefix("10.244.0.0/16"));
  CHECK(ref.ipam_type == "host-local");
  CHECK(ref.loopback_dsr);
  CHECK_FALSE(ref.blueprint);  // flanneld creates cbr0: no "master"

  // Microsoft's file is indented with no-break spaces, which no JSON
  // parser (Go's included) accepts; with plain spaces it works.
  CHECK(test::thrown_error([] { parse(test::fixture_config("ms-flannel_l2bridge.conf")); }).code() ==
        cni::kDecodingFailure);
  auto ms = parse_json(test::flannel_delegate(test::with_plain_spaces(test::fixture_config("ms-flannel_l2bridge.conf")),
                                              "10.244.1.0/24", "10.244.0.0/16"));
  CHECK(ms.plugin_type == "sdnbridge");
  CHECK(ms.flags.force_bridge_gateway);
  CHECK_FALSE(ms.loopback_dsr);
  CHECK(ms.policies.size() == 3);
}

TEST_CASE("Microsoft's dual-stack example with host-local") {
  auto config = parse(test::fixture_config("ms-l2bridgedualstack_host-local_ipam.conf"));
  CHECK(config.flags.enable_dual_stack);
  CHECK(config.flags.local_routed_port_mapping);
  CHECK(config.flags.allow_acl_port_mapping);
  REQUIRE(config.ipam_ranges.size() == 2);
  REQUIRE(config.blueprint);
  CHECK(config.blueprint->subnets == std::vector<cni::IpPrefix>{prefix("192.168.1.0/24"), prefix("fd00::100/120")});
  CHECK(config.policies.size() == 4);
}

TEST_CASE("Microsoft's l2bridge and l2tunnel examples") {
  auto bridge = parse(test::fixture_config("ms-l2bridge.conf"));
  CHECK(bridge.plugin_type == "l2bridge");
  REQUIRE(bridge.blueprint);
  CHECK(bridge.blueprint->subnets == std::vector<cni::IpPrefix>{prefix("192.168.1.0/24")});
  CHECK(bridge.blueprint->dns.search == std::vector<std::string>{"svc.cluster.local"});

  auto tunnel = parse(test::fixture_config("ms-l2tunnel.conf"));
  CHECK(tunnel.ipam_type == "azure-vnet-ipam");
  REQUIRE(tunnel.blueprint);
  CHECK(tunnel.blueprint->subnets == std::vector<cni::IpPrefix>{prefix("10.240.0.0/12")});
}

TEST_CASE("fixtures that cannot work are rejected with the reason") {
  // The dual-stack template still has its {{placeholders}}.
  auto error = test::thrown_error([] { parse(test::fixture_config("ms-l2bridge-dualstack-cni-template.conf")); });
  CHECK(error.code() == cni::kInvalidNetworkConfig);
  CHECK(error.msg() == "invalid characters found in network name");
  // The NAT example writes "gateway" where a route has "gw".
  error = test::thrown_error([] { parse(test::fixture_config("ms-nat.conf")); });
  CHECK(error.msg() == "ipam.routes[0]: needs a \"dst\" or a \"gw\"");
}

TEST_CASE("apiVersion: 1, 2, or absent") {
  CHECK(parse(R"({"name":"n","apiVersion":2})").api == HnsApi::V2);
  CHECK(parse(R"({"name":"n","ApiVersion":1})").api == HnsApi::V1);
  CHECK_FALSE(parse(R"({"name":"n","apiVersion":0})").api);
  CHECK(config_error_of(R"({"name":"n","apiVersion":3})") == "apiVersion: 3 is not in 0-2");
  CHECK(config_error_of(R"({"name":"n","apiVersion":"2"})") == "apiVersion: must be a number, not string");
}

TEST_CASE("without apiVersion, CNI_NETNS says which API") {
  CHECK(api_for_netns("5c0e0f3a-9e0b-4f3c-9d7c-111111111111") == HnsApi::V2);
  CHECK(api_for_netns("none") == HnsApi::V1);
  CHECK(api_for_netns("container:abc") == HnsApi::V1);
  CHECK_FALSE(api_for_netns(""));
}

TEST_CASE("ipMasqNetwork, loopbackDSR, optionalFlags, networkWaitSeconds, endpointMacPrefix") {
  auto config = parse(R"({"name":"n","ipMasqNetwork":"10.244.0.5","optionalFlags":{"loopbackDSR":true,"bogus":true},
                          "networkWaitSeconds":0.5,"endpointMacPrefix":"0E-2A"})");
  CHECK(config.ip_masq_network == prefix("10.244.0.5/32"));
  CHECK(config.loopback_dsr);
  CHECK(config.network_wait == std::chrono::milliseconds(500));
  CHECK(config.endpoint_mac_prefix == "0E-2A");
  REQUIRE(config.warnings.size() == 1);
  CHECK(config.warnings[0] == "optionalFlags.bogus is not a flag this plugin knows; ignored");

  CHECK(config_error_of(R"({"name":"n","ipMasqNetwork":"10.244.0.0/33"})") ==
        "ipMasqNetwork: \"10.244.0.0/33\" is neither an IP prefix nor an address");
  CHECK(config_error_of(R"({"name":"n","optionalFlags":{"enableDualStack":"yes"}})") ==
        "optionalFlags.enableDualStack: must be true or false, not string");
  CHECK(config_error_of(R"({"name":"n","endpointMacPrefix":"0E2A"})") ==
        "endpointMacPrefix: \"0E2A\" is invalid, value must be of the format xx-xx");
  CHECK(config_error_of(R"({"name":"n","networkWaitSeconds":-1})") == "networkWaitSeconds: must be within 0-3600");
  CHECK(config_error_of(R"({"name":"n","loopbackDSR":"true"})") == "loopbackDSR: must be true or false, not string");
}

TEST_CASE("a blueprint needs both the adapter and a subnet") {
  CHECK_FALSE(parse(R"({"name":"n","master":"Ethernet"})").blueprint);
  CHECK_FALSE(parse(R"({"name":"n","ipam":{"subnet":"10.0.0.0/24"}})").blueprint);
  auto config = parse(R"({"name":"n","master":"Ethernet","ipam":{"type":"host-local","subnet":"10.0.0.0/24"},
      "AdditionalArgs":[{"Name":"NetworkPolicy","Value":{"Type":"NetAdapterName","Settings":{"NetworkAdapterName":"Ethernet 2"}}}]})");
  REQUIRE(config.blueprint);
  CHECK(config.blueprint->subnets == std::vector<cni::IpPrefix>{prefix("10.0.0.0/24")});
  CHECK(config.blueprint->policies.size() == 1);
  // A subnet named by several ranges is created once.
  auto twice = parse(R"({"name":"n","master":"Ethernet","ipam":{"type":"host-local","ranges":[
      [{"subnet":"10.0.0.0/24","rangeStart":"10.0.0.10","rangeEnd":"10.0.0.20"},
       {"subnet":"10.0.0.0/24","rangeStart":"10.0.0.30"}]]}})");
  REQUIRE(twice.blueprint);
  CHECK(twice.blueprint->subnets == std::vector<cni::IpPrefix>{prefix("10.0.0.0/24")});
}

TEST_CASE("teardown reads only what DEL needs") {
  const auto conf = cni::NetConf::parse(
      R"({"name":"cbr0","apiVersion":2,"ipam":{"type":"host-local"},"runtimeConfig":{"portMappings":[{"protocol":"sctp"}]}})");
  CHECK(test::thrown_error([&] { read_endpoint_config(conf); }).code() == cni::kInvalidNetworkConfig);
  const auto config = read_teardown_config(conf);
  CHECK(config.network == "cbr0");
  CHECK(config.api == HnsApi::V2);
  CHECK(config.ipam_type == "host-local");
  CHECK(config.policies.empty());

  const auto bad_api = read_teardown_config(cni::NetConf::parse(R"({"name":"cbr0","apiVersion":"2"})"));
  CHECK_FALSE(bad_api.api);
  CHECK(bad_api.warnings.size() == 1);
}

TEST_CASE("unknown keys: every non-flannel fixture reads without one; a typo is a warning naming the key") {
  for (const test::FixtureConfig& fixture : test::kFixtureConfigs) {
    const json config = json::parse(test::with_plain_spaces(std::string(fixture.text)));
    if (config.contains("delegate")) continue;                              // flannel's: tests/unit/flannel
    if (fixture.file.find("template") != std::string_view::npos) continue;  // {{NAME}} placeholders
    CAPTURE(fixture.file);
    std::vector<std::string> warnings;
    try {
      warnings = parse_json(config).warnings;
    } catch (const cni::Error&) {
      continue;  // a fixture the engine refuses for another reason (ms-nat.conf's route)
    }
    for (const std::string& warning : warnings) {
      CHECK_MESSAGE(warning.find("unknown key") == std::string::npos, warning);
    }
  }
  json typo = json::parse(test::fixture_config("ref-win-bridge-v1.conf"));
  typo["ipMasqNetwrok"] = "10.244.0.0/16";
  typo["dns"]["serach"] = json::array({"svc.cluster.local"});
  const auto warnings = parse_json(typo).warnings;
  CHECK(std::count(warnings.begin(), warnings.end(),
                   "unknown key \"ipMasqNetwrok\" is ignored (did you mean \"ipMasqNetwork\"?)") == 1);
  CHECK(std::count(warnings.begin(), warnings.end(),
                   "unknown key \"dns.serach\" is ignored (did you mean \"search\"?)") == 1);
}
