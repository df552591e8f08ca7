// Dual stack follows from the addresses the pod gets, never from
// optionalFlags.enableDualStack. Microsoft's plugin needs the flag to look at
// IPv6 at all (without it: the IPAM config re-serialised without "ranges",
// the IPv6 result dropped, no IPv6 port mappings); here IPAM always gets the
// config as written, every address it returns goes on the endpoint, and an
// IPv6 port mapping is added exactly when the pod has an IPv6 address. So
// the flag is accepted and changes nothing — which these tests pin.

#include <doctest/doctest.h>

#include "configs.hpp"
#include "emulated_node.hpp"

using namespace wincni;
using namespace wincni::test;
using nlohmann::json;

namespace {

json dual_stack(const EmulatedNode& node) {
  json config = bridge_config(node);
  config["name"] = "ds";
  config["master"] = "Ethernet";
  config["ipam"] = {{"type", "host-local"},
                    {"dataDir", node.ipam_dir()},
                    {"ranges", json::parse(R"([[{"subnet":"10.244.2.0/24"}],[{"subnet":"fd00:10:244:2::/64"}]])")}};
  config["runtimeConfig"] = {{"portMappings", {{{"hostPort", 8080}, {"containerPort", 80}, {"protocol", "tcp"}}}}};
  return config;
}

struct Outcome {
  json result;
  json endpoint;
};

// ADD, what HNS holds, DEL.
Outcome add_and_look(const EmulatedNode& node, const json& config) {
  const std::string ns = node.create_namespace();
  Outcome outcome{node.add("pod1", ns, config.dump()), *node.endpoint("pod1_" + config["name"].get<std::string>())};
  node.del("pod1", ns, config.dump());
  for (const char* changing : {"ID", "HostComputeNamespace", "MacAddress"}) outcome.endpoint.erase(changing);
  outcome.result["interfaces"][0].erase("mac");  // HNS's choice (hns_choices.hpp)
  CHECK(outcome.result["interfaces"][0]["sandbox"] == ns);
  outcome.result["interfaces"][0].erase("sandbox");  // each node's own namespace
  return outcome;
}

std::vector<json> port_mappings(const json& endpoint) {
  std::vector<json> mappings;
  for (const json& policy : endpoint["Policies"]) {
    if (policy["Type"] == "PortMapping") mappings.push_back(policy["Settings"]);
  }
  return mappings;
}

}  // namespace

TEST_CASE("enableDualStack changes nothing: the same result and endpoint with and without it" *
          doctest::test_suite("<hns-picks>")) {
  // Two nodes alike, so that host-local's round robin starts alike.
  EmulatedNode flagged_node;
  EmulatedNode node;
  json config = dual_stack(flagged_node);
  config["optionalFlags"] = {{"enableDualStack", true}};
  const Outcome with_flag = add_and_look(flagged_node, config);
  config = dual_stack(node);
  const Outcome without_flag = add_and_look(node, config);

  CHECK(with_flag.result == without_flag.result);
  CHECK(with_flag.endpoint == without_flag.endpoint);
  // Both families in both: addresses, and a port mapping per family.
  REQUIRE(without_flag.result["ips"].size() == 2);
  CHECK(without_flag.result["ips"][1]["address"] == "fd00:10:244:2::3/64");
  CHECK(port_mappings(without_flag.endpoint) ==
        std::vector<json>{json::parse(R"({"Protocol":6,"InternalPort":80,"ExternalPort":8080,"Flags":1})"),
                          json::parse(R"({"Protocol":6,"InternalPort":80,"ExternalPort":8080,"Flags":3})")});
  CHECK(flagged_node.audit() == "");
  CHECK(node.audit() == "");
}

TEST_CASE("enableDualStack on an IPv4-only pod adds no IPv6 port mapping (Microsoft's plugin would)" *
          doctest::test_suite("<hns-picks>")) {
  EmulatedNode node;
  node.host_gw();
  json config = bridge_config(node);
  config["optionalFlags"] = {{"enableDualStack", true}};
  config["runtimeConfig"] = {{"portMappings", {{{"hostPort", 8080}, {"containerPort", 80}, {"protocol", "tcp"}}}}};
  const Outcome outcome = add_and_look(node, config);
  CHECK(outcome.result["ips"].size() == 1);
  CHECK(port_mappings(outcome.endpoint) ==
        std::vector<json>{json::parse(R"({"Protocol":6,"InternalPort":80,"ExternalPort":8080,"Flags":1})")});
  CHECK(node.audit() == "");
}
