#include <doctest/doctest.h>

#include "addresses.hpp"
#include "cni_test_helpers.hpp"
#include "parsed_config.hpp"
#include "plan/endpoint_plan.hpp"
#include "plan/policy_assembly.hpp"
#include "wincni/bridge/bridge_flavor.hpp"

using namespace wincni;
using namespace wincni::engine;
using nlohmann::json;
using test::config_of;
using test::ip;
using test::prefix;

namespace {

NetworkView cbr0() {
  NetworkView network;
  network.id = *hns::Guid::parse("D01CC818-286B-4B5E-88B8-9B19F352D080");
  network.name = "cbr0";
  network.type = hns::NetworkType::L2Bridge;
  network.subnets = {SubnetView{prefix("10.244.1.0/24"), ip("10.244.1.1"), ip("10.244.1.1"), {}}};
  return network;
}

const bridge::BridgeFlavor flavor;

EndpointSpec plan(const EndpointConfig& config, std::vector<PodAddress> addresses, HnsApi api = HnsApi::V2) {
  const NetworkView network = cbr0();
  return plan_endpoint(PlanRequest{config, flavor, network, api, "pod1_cbr0", hns::Guid{}, std::move(addresses)});
}

const char* kFlannel = R"({"name":"cbr0","ipMasq":true,"ipMasqNetwork":"10.244.0.0/16","loopbackDSR":true,
    "dns":{"nameservers":["10.96.0.10"]},"ipam":{"type":"host-local","subnet":"10.244.1.0/24"}})";

}  // namespace

TEST_CASE("an endpoint planned from IPAM's address") {
  const EndpointSpec spec = plan(config_of(kFlannel), {{prefix("10.244.1.3/24"), ip("10.244.1.1")}});
  CHECK(spec.name == "pod1_cbr0");
  CHECK(spec.network == cbr0().id);
  CHECK(spec.addresses == std::vector<cni::IpPrefix>{prefix("10.244.1.3/24")});
  CHECK(spec.gateways == std::vector<cni::IpAddress>{ip("10.244.1.2")});
  CHECK(spec.dns.nameservers == std::vector<std::string>{"10.96.0.10"});
  CHECK(render_policies(spec.policies, HnsApi::V2) == json::parse(R"([
      {"Type":"OutBoundNAT","Settings":{"Exceptions":["10.244.0.0/16"]}},
      {"Type":"OutBoundNAT","Settings":{"Destinations":["10.244.1.3"]}}])"));
}

TEST_CASE("ipMasq alone exempts the network's own subnet") {
  const auto config = config_of(R"({"name":"cbr0","ipMasq":true})");
  CHECK(nat_exceptions(config, cbr0()) == std::vector<cni::IpPrefix>{prefix("10.244.1.0/24")});
  CHECK(nat_exceptions(config_of(kFlannel), cbr0()) == std::vector<cni::IpPrefix>{prefix("10.244.0.0/16")});
  CHECK(nat_exceptions(config_of(R"({"name":"cbr0"})"), cbr0()).empty());
}

TEST_CASE("when HNS assigns, the plan has no address, and loopback DSR comes later") {
  const EndpointSpec spec = plan(config_of(kFlannel), {});
  CHECK(spec.addresses.empty());
  CHECK(spec.gateways == std::vector<cni::IpAddress>{ip("10.244.1.2")});
  CHECK(spec.policies.size() == 1);  // the OutBoundNAT only
  const auto late = late_policies(config_of(kFlannel), {prefix("10.244.1.3/24")}, HnsApi::V2);
  REQUIRE(late.size() == 1);
  CHECK(late[0].as<hns::OutboundNatPolicy>()->destinations == std::vector<std::string>{"10.244.1.3"});
  CHECK(late_policies(config_of(R"({"name":"cbr0"})"), {prefix("10.244.1.3/24")}, HnsApi::V2).empty());
}

TEST_CASE("addresses a pod must not have are refused") {
  const auto config = config_of(kFlannel);
  auto error = test::thrown_error([&] { plan(config, {{prefix("10.244.1.2/24"), std::nullopt}}); });
  CHECK(error.code() == cni::kUnusableAddress);
  CHECK(error.msg() ==
        "IPAM gave the pod 10.244.1.2, the pod's own gateway: keep it out of the addresses IPAM hands "
        "out");
  error = test::thrown_error([&] { plan(config, {{prefix("10.244.1.1/24"), std::nullopt}}); });
  CHECK(error.msg() == "IPAM gave the pod 10.244.1.1, the address HNS keeps for the subnet's gateway");
  error = test::thrown_error([&] { plan(config, {{prefix("10.9.9.9/24"), std::nullopt}}); });
  CHECK(error.msg() ==
        "IPAM gave the pod 10.9.9.9, which is in no subnet of network \"cbr0\" (10.244.1.0/24): the "
        "IPAM ranges must match the network");
  error = test::thrown_error([&] {
    plan(config, {{prefix("10.244.1.3/24"), std::nullopt}, {prefix("10.244.1.4/24"), std::nullopt}});
  });
  CHECK(error.msg() ==
        "IPAM gave two IPv4 addresses (10.244.1.3/24 and 10.244.1.4/24); an HNS endpoint holds one per "
        "family");
}

TEST_CASE("the host endpoint's address is never a pod's, even when the pods' gateway is elsewhere") {
  // flanneld's node (cbr0_ep at .2) with an explicit gateway of .9.
  const auto config =
      config_of(R"({"name":"cbr0","ipam":{"type":"host-local","subnet":"10.244.1.0/24","gateway":"10.244.1.9"}})");
  NetworkView network = cbr0();
  network.host_addresses = {ip("10.244.1.2")};
  const auto planned = [&](const char* address) {
    return plan_endpoint(
        PlanRequest{config, flavor, network, HnsApi::V2, "pod1_cbr0", hns::Guid{}, {{prefix(address), std::nullopt}}});
  };
  CHECK(planned("10.244.1.3/24").gateways == std::vector<cni::IpAddress>{ip("10.244.1.9")});
  auto error = test::thrown_error([&] { planned("10.244.1.2/24"); });
  CHECK(error.code() == cni::kUnusableAddress);
  CHECK(error.msg() ==
        "IPAM gave the pod 10.244.1.2, the address of the host's bridge endpoint: keep it out of the "
        "addresses IPAM hands out");
  // HNS's own choice is checked the same way.
  const EndpointSpec spec = planned("10.244.1.3/24");
  error = test::thrown_error([&] { require_usable(ip("10.244.1.2"), spec, network, flavor, "HNS"); });
  CHECK(error.msg().starts_with("HNS gave the pod 10.244.1.2, the address of the host's bridge endpoint"));
}

TEST_CASE("additionalRoutes beyond the default route: endpoint routes in HCN, an error in HNS v1") {
  const auto config = config_of(
      R"({"name":"cbr0","additionalRoutes":[{"dst":"10.96.0.0/12"},{"dst":"10.50.0.0/16","gw":"10.244.1.9"}]})");
  const EndpointSpec spec = plan(config, {{prefix("10.244.1.3/24"), std::nullopt}});
  REQUIRE(spec.routes.size() == 2);
  CHECK(spec.routes[0].destination == prefix("10.96.0.0/12"));
  CHECK(spec.routes[0].next_hop == ip("10.244.1.2"));
  CHECK(spec.routes[1].next_hop == ip("10.244.1.9"));
  auto error = test::thrown_error([&] { plan(config, {{prefix("10.244.1.3/24"), std::nullopt}}, HnsApi::V1); });
  CHECK(error.code() == cni::kUnsupportedField);
  CHECK(error.msg() ==
        "additionalRoutes[0]: HNS v1 endpoints carry no routes besides the gateway; set \"apiVersion\": 2");
}

TEST_CASE("an existing endpoint matches the plan only when it is what ADD would create") {
  const auto config = config_of(kFlannel);
  const EndpointSpec spec = plan(config, {{prefix("10.244.1.3/24"), std::nullopt}});
  EndpointView endpoint;
  endpoint.addresses = spec.addresses;
  endpoint.gateways = spec.gateways;
  endpoint.dns = spec.dns;
  // HNS may list the policies in another order.
  endpoint.policies.assign(spec.policies.rbegin(), spec.policies.rend());
  CHECK(endpoint_matches(endpoint, spec, HnsApi::V2));

  EndpointView moved = endpoint;
  moved.addresses = {prefix("10.244.1.4/24")};
  CHECK_FALSE(endpoint_matches(moved, spec, HnsApi::V2));
  EndpointView other_gateway = endpoint;
  other_gateway.gateways = {ip("10.244.1.1")};
  CHECK_FALSE(endpoint_matches(other_gateway, spec, HnsApi::V2));
  EndpointView fewer_policies = endpoint;
  fewer_policies.policies.pop_back();
  CHECK_FALSE(endpoint_matches(fewer_policies, spec, HnsApi::V2));
  EndpointView other_dns = endpoint;
  other_dns.dns.nameservers = {"8.8.8.8"};
  CHECK_FALSE(endpoint_matches(other_dns, spec, HnsApi::V2));
}
