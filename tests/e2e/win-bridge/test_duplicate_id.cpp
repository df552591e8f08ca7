// An endpoint that already has the ID the pod's endpoint would get: HNS
// refuses the create, with a code that is not public (the emulator's is a
// switch, WINCNI_EMULATOR_DUPLICATE_CODE, and this suite runs under each),
// and the ADD's rollback must not delete that endpoint.

#include <doctest/doctest.h>

#include "configs.hpp"
#include "emulated_node.hpp"
#include "foreign_endpoint.hpp"

using namespace wincni;
using namespace wincni::test;
using nlohmann::json;

TEST_CASE("an endpoint that already has the pod's endpoint ID is someone else's: the ADD fails, it stays" *
          doctest::test_suite("<duplicate-id><hns-picks>")) {
  EmulatedNode node;
  node.host_gw();
  const std::string ns = node.create_namespace();
  const std::string config = bridge_config(node).dump();
  // The ID the pod's endpoint gets (derived from the network and its name).
  node.add("pod1", ns, config);
  const std::string taken = (*node.endpoint("pod1_cbr0"))["ID"];
  node.del("pod1", ns, config);

  hns::HnsClient client = node_client(node);
  hns::HostComputeEndpoint settings;
  settings.id = *hns::Guid::parse(taken);
  settings.name = "someone-elses";
  settings.host_compute_network = client.find_network_by_name("cbr0")->id;
  client.create_endpoint(settings);
  client.attach_host(settings.id);

  Run run = node.plugin({"ADD", "pod1", ns, config});
  CHECK(run.code() == 100);
  auto kept = client.find_endpoint(settings.id);
  REQUIRE(kept);
  CHECK(kept->name == "someone-elses");
  CHECK_FALSE(node.endpoint("pod1_cbr0"));
  CHECK(node.held_addresses("cbr0").empty());
  CHECK(node.audit() == "");
}
