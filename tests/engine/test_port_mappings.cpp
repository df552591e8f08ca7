// Port mappings as HNS gets them: on HCN with LocalRoutedVip unless the
// config says "localRoutedPortMapping": false (without it HNS accepts a
// mapping on L2Bridge that never takes effect), the IPv6 flag on an IPv6
// mapping; on HNS v1, which has no flags, without.

#include <doctest/doctest.h>

#include "flavor_cases.hpp"

using namespace wincni;
using namespace wincni::test;
using nlohmann::json;

namespace {

json with_port_mapping(json config) {
  config["runtimeConfig"] = {{"portMappings", {{{"hostPort", 8080}, {"containerPort", 80}, {"protocol", "tcp"}}}}};
  return config;
}

std::vector<json> port_mappings(const json& endpoint) {
  std::vector<json> mappings;
  for (const json& policy : endpoint.value("Policies", json::array())) {
    if (policy.value("Type", "") == "PortMapping") mappings.push_back(policy["Settings"]);
  }
  return mappings;
}

}  // namespace

TEST_CASE_TEMPLATE("HCN port mappings carry LocalRoutedVip by default, and not when the config opts out", Case,
                   WINCNI_FLAVOR_CASES) {
  INFO(Case::kName);
  CaseNode<Case> node;
  const std::string name = "pod1_" + std::string(Case::kNetwork);
  const json config = with_port_mapping(node.config());
  const std::string ns = node.create_namespace();
  node.add("pod1", ns, config.dump());
  CHECK(port_mappings(*node.endpoint(name)) ==
        std::vector<json>{json::parse(R"({"Protocol":6,"InternalPort":80,"ExternalPort":8080,"Flags":1})")});
  node.del("pod1", ns, config.dump());

  json opted_out = config;
  opted_out["optionalFlags"] = {{"localRoutedPortMapping", false}};
  node.add("pod1", ns, opted_out.dump());
  CHECK(port_mappings(*node.endpoint(name)) ==
        std::vector<json>{json::parse(R"({"Protocol":6,"InternalPort":80,"ExternalPort":8080})")});
  node.del("pod1", ns, opted_out.dump());
  CHECK(node.audit() == "");
}

TEST_CASE_TEMPLATE("HNS v1 port mappings have no flags; asking for LocalRoutedVip there is code 2", Case,
                   WINCNI_FLAVOR_CASES) {
  INFO(Case::kName);
  CaseNode<Case> node;
  const json config = with_port_mapping(node.config("0.3.1"));
  node.add("pause1", "none", config.dump());
  auto endpoint = node.endpoint("pause1_" + std::string(Case::kNetwork));
  REQUIRE(endpoint);
  CHECK(port_mappings(*endpoint) ==
        std::vector<json>{json::parse(R"({"Protocol":6,"InternalPort":80,"ExternalPort":8080})")});
  node.del("pause1", "none", config.dump());

  json asked = config;
  asked["optionalFlags"] = {{"localRoutedPortMapping", true}};
  Run run = node.plugin({"ADD", "pause1", "none", asked.dump()});
  CHECK(run.code() == 2);
  CHECK(run.msg().find("cannot be expressed in HNS v1") != std::string::npos);
  CHECK(node.held_addresses(Case::kNetwork).empty());
  CHECK(node.audit() == "");
}
