// STATUS beyond test_lifecycle.cpp: a network the config can create is
// ready before it exists, and IPAM's own STATUS is passed on as it is.

#include <doctest/doctest.h>

#include "configs.hpp"
#include "emulated_node.hpp"

using namespace wincni;
using namespace wincni::test;
using nlohmann::json;

namespace {

Run status(const EmulatedNode& node, json config) {
  config["cniVersion"] = "1.1.0";
  return node.plugin({"STATUS", "", "", config.dump()});
}

}  // namespace

TEST_CASE("STATUS: a missing network the config can create is no obstacle") {
  EmulatedNode node;
  json config = bridge_config(node);
  CHECK(status(node, config).code() == 50);  // flanneld's to create: not yet
  config["master"] = "Ethernet";             // with ipam.subnet: win-bridge's to create
  Run run = status(node, config);
  CHECK_MESSAGE(run.ok(), run.out);
  CHECK(node.networks().empty());  // STATUS creates nothing
}

TEST_CASE("STATUS: IPAM's STATUS is passed on") {
  EmulatedNode node;
  node.host_gw();
  json config = bridge_config(node);
  config["ipam"]["rangeStart"] = "10.244.1.5";
  config["ipam"]["rangeEnd"] = "10.244.1.5";
  CHECK(status(node, config).ok());
  const std::string ns = node.create_namespace();
  node.add("pod1", ns, config.dump());
  Run run = status(node, config);
  CHECK(run.code() == 50);
  CHECK(run.msg() == "no IP addresses available in range set: 10.244.1.5-10.244.1.5");
  node.del("pod1", ns, config.dump());
  CHECK(status(node, config).ok());

  // The same with a network win-bridge may create and has not yet: an IPAM
  // config host-local cannot use is host-local's error (in the reference's
  // words for a start beyond the end).
  json creatable = config;
  creatable["name"] = "later";
  creatable["master"] = "Ethernet";
  creatable["ipam"]["subnet"] = "10.244.9.0/24";
  creatable["ipam"]["rangeStart"] = "10.244.9.5";
  creatable["ipam"]["rangeEnd"] = "10.244.9.4";
  run = status(node, creatable);
  CHECK(run.code() == 7);
  CHECK(run.msg() == "invalid range set 0: RangeStart 10.244.9.5 not in network 10.244.9.0/24");
}
