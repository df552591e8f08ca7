#include <doctest/doctest.h>

#include "addresses.hpp"
#include "commands/network_locator.hpp"
#include "fixture_configs.hpp"
#include "parsed_config.hpp"
#include "plan/endpoint_plan.hpp"
#include "wincni/overlay/overlay_flavor.hpp"

using namespace wincni;
using namespace wincni::engine;
using test::config_of;
using test::ip;
using test::prefix;

namespace {

const overlay::OverlayFlavor flavor;
const hns::HnsVersion kModernHns{15, 4};
const hns::HnsVersion kBeforeVxlanPort{10, 2};

// flanneld's vxlan network as HNS shows it: VSID 4096, gateway .1, the
// provider address HNS publishes.
NetworkView flannel_network(std::uint32_t vsid = 4096) {
  NetworkView network;
  network.name = "flannel.4096";
  network.type = hns::NetworkType::Overlay;
  network.provider_address = ip("192.0.2.4");
  network.subnets = {
      SubnetView{prefix("10.244.3.0/24"), ip("10.244.3.1"), ip("10.244.3.1"), {hns::Policy{hns::VsidPolicy{vsid}}}}};
  return network;
}

int error_code(const std::function<void()>& action) {
  try {
    action();
  } catch (const cni::Error& e) {
    return static_cast<int>(e.code());
  }
  return 0;
}

std::string error_text(const std::function<void()>& action) {
  try {
    action();
  } catch (const cni::Error& e) {
    return e.msg();
  }
  return {};
}

}  // namespace

TEST_CASE("the MAC is the prefix and the IPv4 address's bytes: the reference plugin's vectors") {
  // containernetworking/plugins win-overlay formats "<prefix>-%02x-%02x-%02x-%02x";
  // HNS keeps a MAC as given, and we send the upper-case form HNS uses for its own.
  CHECK(overlay::overlay_mac("0E-2A", ip("10.244.1.5")) == "0E-2A-0A-F4-01-05");
  CHECK(overlay::overlay_mac("0e-2a", ip("192.168.255.1")) == "0E-2A-C0-A8-FF-01");
  auto plain = config_of(R"({"name":"flannel.4096"})");
  CHECK(flavor.mac_for(plain, {prefix("10.244.1.5/24")}) == "0E-2A-0A-F4-01-05");
  auto custom = config_of(R"({"name":"flannel.4096","endpointMacPrefix":"02-11"})");
  CHECK(flavor.mac_for(custom, {prefix("10.244.3.7/24")}) == "02-11-0A-F4-03-07");
  // HNS assigns the address: no MAC to derive, HNS picks one.
  CHECK(flavor.mac_for(plain, {}).empty());
}

TEST_CASE("endpointMacPrefix must be two hex bytes, as the reference checks it") {
  for (const char* bad : {"0E2A", "0E-2A-", "0G-2A", "0E:2A", "E-2A"}) {
    CAPTURE(bad);
    const std::string text = std::string(R"({"name":"n","endpointMacPrefix":")") + bad + "\"}";
    const std::string message = error_text([&] { config_of(text.c_str()); });
    CHECK(message.find("must be of the format xx-xx") != std::string::npos);
  }
}

TEST_CASE("vni: 4096 and up, with a message that says why; vxlanPort a UDP port") {
  CHECK(config_of(R"({"name":"n","vni":4096})").vni == 4096u);
  CHECK(config_of(R"({"name":"n","vni":16777215})").vni == 16777215u);
  CHECK_FALSE(config_of(R"({"name":"n"})").vni);
  const std::string low = error_text([] { config_of(R"({"name":"n","vni":1})"); });
  CHECK(low.find("at least 4096") != std::string::npos);
  CHECK(error_code([] { config_of(R"({"name":"n","vni":4095})"); }) != 0);
  CHECK(error_code([] { config_of(R"({"name":"n","vni":16777216})"); }) != 0);
  CHECK(error_code([] { config_of(R"({"name":"n","vni":"4096"})"); }) != 0);
  CHECK(config_of(R"({"name":"n","vxlanPort":4790})").vxlan_port == 4790);
  CHECK(error_code([] { config_of(R"({"name":"n","vxlanPort":0})"); }) != 0);
  CHECK(error_code([] { config_of(R"({"name":"n","vxlanPort":65536})"); }) != 0);
}

TEST_CASE("a network win-overlay creates is flanneld's: VSID, VxlanPort, HostRoute, not persistent") {
  auto config = config_of(R"({"name":"flannel.4096","master":"Ethernet",
                              "ipam":{"type":"host-local","subnet":"10.244.3.0/24"}})");
  const NetworkSpec spec = creatable_network(config, flavor, kModernHns).value();
  CHECK(spec.type == hns::NetworkType::Overlay);
  CHECK(spec.non_persistent);
  CHECK(spec.subnets.size() == 1);
  CHECK(spec.subnets[0].gateway == ip("10.244.3.1"));
  REQUIRE(spec.subnet_policies.size() == 1);
  CHECK(spec.subnet_policies[0].as<hns::VsidPolicy>()->isolation_id == 4096u);
  REQUIRE(find_policy<hns::VxlanPortPolicy>(spec.policies) != nullptr);
  CHECK(find_policy<hns::VxlanPortPolicy>(spec.policies)->port == 4789);
  CHECK(find_policy<hns::HostRoutePolicy>(spec.policies) != nullptr);
  CHECK(find_policy<hns::ProviderAddressPolicy>(spec.policies) == nullptr);  // HNS finds the adapter's

  auto tuned = config_of(R"({"name":"flannel.5000","master":"Ethernet","vni":5000,"vxlanPort":4790,
                             "ipam":{"type":"host-local","subnet":"10.244.3.0/24"},
                             "policies":[{"name":"EndpointPolicy","value":{"Type":"ProviderAddress",
                                          "Settings":{"ProviderAddress":"10.0.133.170"}}}]})");
  const NetworkSpec tuned_spec = creatable_network(tuned, flavor, kModernHns).value();
  CHECK(tuned_spec.subnet_policies[0].as<hns::VsidPolicy>()->isolation_id == 5000u);
  CHECK(find_policy<hns::VxlanPortPolicy>(tuned_spec.policies)->port == 4790);
  REQUIRE(find_policy<hns::ProviderAddressPolicy>(tuned_spec.policies) != nullptr);
  CHECK(find_policy<hns::ProviderAddressPolicy>(tuned_spec.policies)->provider_address == "10.0.133.170");
}

TEST_CASE("before HNS 10.3 there is no VxlanPort: 4789 goes without it, another port is refused") {
  auto plain =
      config_of(R"({"name":"vxlan0","master":"Ethernet","ipam":{"type":"host-local","subnet":"10.244.3.0/24"}})");
  const NetworkSpec spec = creatable_network(plain, flavor, kBeforeVxlanPort).value();
  CHECK(find_policy<hns::VxlanPortPolicy>(spec.policies) == nullptr);
  auto other = config_of(R"({"name":"vxlan0","master":"Ethernet","vxlanPort":4790,
                             "ipam":{"type":"host-local","subnet":"10.244.3.0/24"}})");
  CHECK(error_code([&] { creatable_network(other, flavor, kBeforeVxlanPort); }) == cni::kUnsupportedField);
  CHECK(error_text([&] { creatable_network(other, flavor, kBeforeVxlanPort); }).find("10.2") != std::string::npos);
}

TEST_CASE("without master and a subnet win-overlay creates nothing: flanneld does") {
  auto delegate = config_of(R"({"name":"flannel.4096","ipam":{"type":"host-local","subnet":"10.244.3.0/24"}})");
  CHECK_FALSE(creatable_network(delegate, flavor, kModernHns));
  CHECK(missing_network_advice(delegate, flavor).find("flanneld") != std::string::npos);
}

TEST_CASE("the pod's gateway is the overlay subnet's, whatever IPAM printed") {
  auto config = config_of(R"({"name":"flannel.4096","ipam":{"type":"host-local","subnet":"10.244.3.0/24"}})");
  CHECK(flavor.pod_gateway(config, flannel_network(), ip("10.244.3.9"), ip("10.244.3.254")) == ip("10.244.3.1"));
  NetworkView no_gateway = flannel_network();
  no_gateway.subnets[0].gateway.reset();
  CHECK(flavor.pod_gateway(config, no_gateway, ip("10.244.3.9"), ip("10.244.3.254")) == ip("10.244.3.254"));
}

TEST_CASE("the endpoint carries the network's provider address, unless the config gives one") {
  auto config = config_of(R"({"name":"flannel.4096","ipMasq":true,"policies":[
      {"name":"EndpointPolicy","value":{"Type":"OutBoundNAT","Settings":{"Exceptions":["10.96.0.0/12"]}}}]})");
  const NetworkView network = flannel_network();
  const EndpointSpec spec = plan_endpoint(PlanRequest{
      config, flavor, network, HnsApi::V2, "p_flannel.4096", {}, {PodAddress{prefix("10.244.3.5/24"), std::nullopt}}});
  REQUIRE(find_policy<hns::ProviderAddressPolicy>(spec.policies) != nullptr);
  CHECK(find_policy<hns::ProviderAddressPolicy>(spec.policies)->provider_address == "192.0.2.4");
  // ipMasq: one OutBoundNAT, the config's exceptions and the network's subnet merged.
  int nat_policies = 0;
  for (const hns::Policy& policy : spec.policies) {
    if (const auto* nat = policy.as<hns::OutboundNatPolicy>()) {
      ++nat_policies;
      CHECK(nat->exceptions == std::vector<std::string>{"10.96.0.0/12", "10.244.3.0/24"});
    }
  }
  CHECK(nat_policies == 1);
  CHECK(spec.mac == "0E-2A-0A-F4-03-05");
  CHECK(spec.gateways == std::vector<cni::IpAddress>{ip("10.244.3.1")});

  auto own = config_of(R"({"name":"flannel.4096","policies":[
      {"name":"EndpointPolicy","value":{"Type":"ProviderAddress","Settings":{"ProviderAddress":"10.0.133.170"}}}]})");
  const EndpointSpec own_spec = plan_endpoint(PlanRequest{
      own, flavor, network, HnsApi::V2, "p_flannel.4096", {}, {PodAddress{prefix("10.244.3.5/24"), std::nullopt}}});
  int provider_policies = 0;
  for (const hns::Policy& policy : own_spec.policies) {
    if (const auto* pa = policy.as<hns::ProviderAddressPolicy>()) {
      ++provider_policies;
      CHECK(pa->provider_address == "10.0.133.170");
    }
  }
  CHECK(provider_policies == 1);
}

TEST_CASE("IPv4 only; IPAM needed on HNS v1") {
  CHECK(flavor.carries(cni::IpFamily::V4));
  CHECK_FALSE(flavor.carries(cni::IpFamily::V6));
  CHECK(flavor.needs_ipam(HnsApi::V1));
  CHECK_FALSE(flavor.needs_ipam(HnsApi::V2));
  CHECK(flavor.accepts(hns::NetworkType::Overlay));
  CHECK_FALSE(flavor.accepts(hns::NetworkType::L2Bridge));
}

TEST_CASE("STATUS: limited connectivity without a provider address, or with another VNI than the config's") {
  const engine::EndpointFlavor::EndpointQueries no_endpoints{
      [](const std::string&) { return std::optional<EndpointView>(); }, [] { return std::vector<EndpointView>{}; }};
  auto config = config_of(R"({"name":"flannel.4096","vni":4096})");
  CHECK_FALSE(flavor.connectivity_problem(config, flannel_network(), no_endpoints));
  NetworkView unbound = flannel_network();
  unbound.provider_address.reset();
  CHECK(flavor.connectivity_problem(config, unbound, no_endpoints).value().find("provider address") !=
        std::string::npos);
  auto other_vni = flavor.connectivity_problem(config, flannel_network(4097), no_endpoints);
  REQUIRE(other_vni);
  CHECK(other_vni->find("4097") != std::string::npos);
  // No vni in the config: nothing to compare.
  CHECK_FALSE(
      flavor.connectivity_problem(config_of(R"({"name":"flannel.4096"})"), flannel_network(4097), no_endpoints));
}

TEST_CASE("the reference configs read as win-overlay reads them") {
  auto v2 = read_endpoint_config(cni::NetConf::parse(test::fixture_config("ref-win-overlay-v2.conf")));
  CHECK(v2.api == HnsApi::V2);
  CHECK(v2.ipam_type == "host-local");
  CHECK(v2.policies.size() == 3);
  auto v1 = read_endpoint_config(cni::NetConf::parse(test::fixture_config("ref-win-overlay-v1.conf")));
  CHECK_FALSE(v1.api);
  CHECK(v1.ipam_type.empty());  // a flannel delegate: flannel adds the ipam section
  CHECK(v1.dns.nameservers == std::vector<std::string>{"11.0.0.10"});
}
