// Microsoft's dual-stack sdnbridge template (example/l2bridge-dualstack-cni-
// template.conf), its {{placeholders}} filled in as a node's deployment
// scripts fill them, on a node prepared as that plugin requires for dual
// stack: the L2Bridge network with an IPv4 and an IPv6 subnet exists before
// the first ADD, with a gateway endpoint attached to the host holding both
// pods' gateways (Microsoft's tests call it GwEp; here it has the bridge
// endpoint's name). HNS assigns the pod's addresses (the template has no
// ipam type); the IPv6 gateway comes from additionalRoutes
// (gatewayFromAdditionalRoutes), the IPv4 one from ipam.routes.

#include <doctest/doctest.h>

#include <map>

#include "configs.hpp"
#include "emulated_node.hpp"
#include "endpoint_policies.hpp"
#include "hns_choices.hpp"
#include "foreign_endpoint.hpp"

using namespace wincni;
using namespace wincni::test;
using nlohmann::json;

namespace {

using cni::IpAddress;
using cni::IpPrefix;

// `text` with every {{NAME}} replaced; the test fails on a placeholder
// without a value, so that none slips through to the plugin.
std::string filled(std::string_view text, const std::map<std::string, std::string>& values) {
  std::string out;
  size_t at = 0;
  while (true) {
    const size_t open = text.find("{{", at);
    out.append(text.substr(at, open == std::string_view::npos ? std::string_view::npos : open - at));
    if (open == std::string_view::npos) break;
    const size_t close = text.find("}}", open);
    REQUIRE(close != std::string_view::npos);
    const std::string name(text.substr(open + 2, close - open - 2));
    auto value = values.find(name);
    REQUIRE_MESSAGE(value != values.end(), "no value for {{" << name << "}}");
    out += value->second;
    at = close + 2;
  }
  return out;
}

const std::map<std::string, std::string> kValues = {
    {"NAME", "dsbridge"},
    {"TYPE", "sdnbridge"},
    {"DNSSERVER", "10.96.0.10"},
    {"LOCAL_ENDPOINT", "192.0.2.4"},  // the node's own addresses
    {"LOCAL_ENDPOINT_IPV6", "2001:db8::4"},
    {"INFRA_PREFIX", "10.1.0.0/16"},  // the infrastructure pods must not reach
    {"INFRA_PREFIX_IPV6", "fd01::/64"},
};

hns::Subnet subnet(const char* prefix, const char* gateway) {
  hns::Subnet out;
  out.ip_address_prefix = *IpPrefix::parse(prefix);
  const IpAddress next_hop = *IpAddress::parse(gateway);
  out.routes.push_back(hns::Route{next_hop, IpPrefix::parse(next_hop.is_v4() ? "0.0.0.0/0" : "::/0"), 0});
  return out;
}

// The network as an operator (or Microsoft's test setup) makes it: IPv4
// 192.168.0.0/24 and IPv6 10::/120, each with HNS's gateway at .1, and the
// host's gateway endpoint at .2 and ::2, attached to the host.
void prepare_dual_stack_network(const EmulatedNode& node) {
  hns::HnsClient client = node_client(node);
  hns::HostComputeNetwork network;
  network.name = "dsbridge";
  network.type = hns::NetworkType::L2Bridge;
  network.policies.push_back(hns::Policy{hns::NetAdapterNamePolicy{"Ethernet"}});
  network.ipams.push_back(hns::Ipam{"Static", {subnet("192.168.0.0/24", "192.168.0.1"), subnet("10::/120", "10::1")}});
  const hns::HostComputeNetwork created = client.create_network(network);
  hns::HostComputeEndpoint gateway;
  gateway.name = "dsbridge_ep";
  gateway.host_compute_network = created.id;
  gateway.ip_configurations = {{*IpAddress::parse("192.168.0.2"), 24}, {*IpAddress::parse("10::2"), 120}};
  client.attach_host(client.create_endpoint(gateway).id);
}

json template_config() {
  return json::parse(filled(fixture_config("ms-l2bridge-dualstack-cni-template.conf"), kValues));
}

json policy_of_type(const json& policies, const std::string& type, size_t nth = 0) {
  for (const json& policy : policies) {
    if (policy["Type"] == type && nth-- == 0) return policy;
  }
  FAIL("no " << type << " policy");
  return {};
}

}  // namespace

TEST_CASE("Microsoft's dual-stack template, filled in, on a node with its v4+v6 L2Bridge network: ADD, CHECK, DEL" *
          doctest::test_suite("<namespace-state><namespace-listing><hns-picks>")) {
  EmulatedNode node;
  prepare_dual_stack_network(node);
  json config = template_config();
  config["runtimeConfig"] = {{"portMappings", {{{"hostPort", 8080}, {"containerPort", 80}, {"protocol", "tcp"}}}}};
  const std::string ns = node.create_namespace();

  const json result = node.add("pod1", ns, config.dump());
  auto endpoint = node.endpoint("pod1_dsbridge");
  REQUIRE(endpoint);
  // HNS assigns an address of each family (its choice), with the prefix
  // lengths of the network's subnets.
  const std::string v4 = endpoint_address(*endpoint, 0);
  const std::string v6 = endpoint_address(*endpoint, 1);
  CHECK((*endpoint)["IpConfigurations"][0]["PrefixLength"] == 24);
  CHECK((*endpoint)["IpConfigurations"][1]["PrefixLength"] == 120);
  json expected = json::parse(R"({"cniVersion":"0.2.0",
      "ip4":{"ip":"HNS's choice","gateway":"192.168.0.2","routes":[{"dst":"0.0.0.0/0","gw":"192.168.0.2"}]},
      "ip6":{"ip":"HNS's choice","gateway":"10::2","routes":[{"dst":"::/0","gw":"10::2"}]},
      "dns":{"nameservers":["10.96.0.10"],"search":["svc.cluster.local"]}})");
  expected["ip4"]["ip"] = v4 + "/24";
  expected["ip6"]["ip"] = v6 + "/120";
  CHECK(result == expected);
  CHECK(node.networks().size() == 1);  // the prepared one, not one of its own
  CHECK((*endpoint)["HostComputeNamespace"] == ns);
  const json& routes = (*endpoint)["Routes"];
  CHECK(std::count(routes.begin(), routes.end(), json::parse(R"({"DestinationPrefix":"::/0","NextHop":"10::2"})")) ==
        1);

  const json policies = sent_policies(*endpoint);
  // Each family's NAT exceptions in its own OutBoundNAT, as the template writes them.
  CHECK(policy_of_type(policies, "OutBoundNAT", 0)["Settings"] ==
        json::parse(R"({"Exceptions":["192.168.0.0/24","192.0.2.4/32"]})"));
  CHECK(policy_of_type(policies, "OutBoundNAT", 1)["Settings"] ==
        json::parse(R"({"Exceptions":["10::/120","2001:db8::4/128"]})"));
  // The ACLs keep their remote addresses and ports, the placeholders' values.
  CHECK(policy_of_type(policies, "ACL", 1)["Settings"] ==
        json::parse(R"({"RemoteAddresses":"192.0.2.4","RemotePorts":"31002","Action":"Allow","Protocols":"6",
                        "Direction":"Out","Priority":200})"));
  CHECK(policy_of_type(policies, "ACL", 2)["Settings"] ==
        json::parse(R"({"RemoteAddresses":"2001:db8::4","RemotePorts":"31002","Action":"Allow","Protocols":"6",
                        "Direction":"Out","Priority":200})"));
  CHECK(policy_of_type(policies, "ACL", 3)["Settings"] ==
        json::parse(R"({"RemoteAddresses":"10.1.0.0/16","Action":"Block","Direction":"Out","Priority":1998})"));
  CHECK(policy_of_type(policies, "ACL", 4)["Settings"] ==
        json::parse(R"({"RemoteAddresses":"fd01::/64","Action":"Block","Direction":"Out","Priority":1998})"));
  // The port mapping for both families (local-routed), and its inbound ACL.
  CHECK(policy_of_type(policies, "PortMapping", 0)["Settings"] ==
        json::parse(R"({"Protocol":6,"InternalPort":80,"ExternalPort":8080,"Flags":1})"));
  CHECK(policy_of_type(policies, "PortMapping", 1)["Settings"] ==
        json::parse(R"({"Protocol":6,"InternalPort":80,"ExternalPort":8080,"Flags":3})"));
  CHECK(policy_of_type(policies, "ACL", 8)["Settings"] ==
        json::parse(R"({"Protocols":"6","Action":"Allow","Direction":"In","LocalPorts":"80","Priority":1000})"));
  CHECK(policies.size() == 2 + 8 + 3);  // the template's NATs and ACLs, the mappings and their ACL

  // CHECK needs a config of 0.4.0 or later (the template's is 0.2.0): the
  // same config at 1.0.0, with the result the runtime holds in that version.
  json check = config;
  check["cniVersion"] = "1.0.0";
  check["prevResult"] = cni::Result::decode(result, "0.2.0").encode("1.0.0");
  Run run = node.plugin({"CHECK", "pod1", ns, check.dump()});
  CHECK_MESSAGE(run.ok(), run.out);
  json wrong = check;
  wrong["prevResult"]["ips"][1]["gateway"] = "10::1";
  run = node.plugin({"CHECK", "pod1", ns, wrong.dump()});
  CHECK(run.code() == 121);
  CHECK(run.msg() == "prevResult's gateway for " + v6 + "/120 is 10::1, but endpoint \"pod1_dsbridge\" has 10::2");

  node.del("pod1", ns, config.dump());
  CHECK_FALSE(node.endpoint("pod1_dsbridge"));
  CHECK(node.endpoint("dsbridge_ep"));
  CHECK(node.audit() == "");
}

TEST_CASE(
    "gatewayFromAdditionalRoutes: a family's gateway still unset comes from an exact default route, only with the "
    "flag") {
  EmulatedNode node;
  prepare_dual_stack_network(node);
  const std::string ns = node.create_namespace();
  json config = template_config();
  // Other gateways than the bridge endpoint's, so that where each comes from shows.
  config["additionalRoutes"] = json::parse(R"([{"GW":"192.168.0.9","Dst":"0.0.0.0/0"},{"GW":"10::9","Dst":"::/0"}])");

  // IPv4 is set by ipam.routes, so its additional route is not used; IPv6
  // is not, so it takes 10::9.
  const json flagged = node.add("pod1", ns, config.dump());
  CHECK(flagged["ip4"]["gateway"] == "192.168.0.2");
  CHECK(flagged["ip6"]["gateway"] == "10::9");
  const json routes = (*node.endpoint("pod1_dsbridge"))["Routes"];
  CHECK(routes == json::parse(R"([{"DestinationPrefix":"0.0.0.0/0","NextHop":"192.168.0.2"},
                                  {"DestinationPrefix":"::/0","NextHop":"10::9"}])"));
  node.del("pod1", ns, config.dump());

  // Without the flag the additional routes give no gateway: IPv6 gets the
  // bridge endpoint's ::2, as any pod on an L2Bridge network.
  config["optionalFlags"]["gatewayFromAdditionalRoutes"] = false;
  const json unflagged = node.add("pod1", ns, config.dump());
  CHECK(unflagged["ip6"]["gateway"] == "10::2");
  CHECK(unflagged["ip4"]["gateway"] == "192.168.0.2");
  node.del("pod1", ns, config.dump());

  // A route without dst does not count, even with the flag.
  config["optionalFlags"]["gatewayFromAdditionalRoutes"] = true;
  config["additionalRoutes"] = json::parse(R"([{"GW":"10::9"}])");
  CHECK(node.add("pod1", ns, config.dump())["ip6"]["gateway"] == "10::2");
  node.del("pod1", ns, config.dump());
  CHECK(node.audit() == "");
}
