// Prefixes with host bits in a config ("10.244.0.1/16"): sent to HNS as their
// network, so that a host that refuses host bits (a Windows Server 2022 node
// did, hcsshim issue 1951) takes the endpoint; the emulator refuses them
// with WINCNI_EMULATOR_PREFIX_HOST_BITS=refuse (tests/unit/hns-emulator shows
// it does).

#include <doctest/doctest.h>

#include "configs.hpp"
#include "emulated_node.hpp"

using namespace wincni::test;
using nlohmann::json;

namespace {

const std::map<std::string, std::string> kRefusingHost = {{"WINCNI_EMULATOR_PREFIX_HOST_BITS", "refuse"}};

std::vector<json> settings_of(const json& endpoint, const std::string& type) {
  std::vector<json> found;
  for (const json& policy : endpoint.value("Policies", json::array())) {
    if (policy.value("Type", "") == type) found.push_back(policy["Settings"]);
  }
  return found;
}

}  // namespace

TEST_CASE("host bits in ipMasqNetwork, exceptions and route destinations reach HNS as networks") {
  EmulatedNode node;
  node.host_gw();
  json config = bridge_config(node);
  config["ipMasqNetwork"] = "10.244.0.1/16";
  config["policies"][0]["value"]["Settings"]["Exceptions"] = {"10.96.0.1/12", "192.168.7.9/16"};
  config["policies"][1]["value"]["Settings"]["DestinationPrefix"] = "10.96.0.1/12";
  const std::string netns = node.create_namespace();

  const Run run = node.plugin({"ADD", "pod1", netns, config.dump(), kRefusingHost});
  REQUIRE_MESSAGE(run.ok(), run.out);
  const auto endpoint = node.endpoint("pod1_cbr0");
  REQUIRE(endpoint);
  const auto nat = settings_of(*endpoint, "OutBoundNAT");
  REQUIRE(nat.size() == 1);
  CHECK(nat[0]["Exceptions"] == json{"10.96.0.0/12", "192.168.0.0/16", "10.244.0.0/16"});
  const auto routes = settings_of(*endpoint, "SDNRoute");
  REQUIRE(routes.size() == 1);
  CHECK(routes[0]["DestinationPrefix"] == "10.96.0.0/12");
  CHECK(node.plugin({"DEL", "pod1", netns, config.dump(), kRefusingHost}).ok());
  CHECK(node.audit() == "");
}
