// flannel's conflists in conf-examples/ on the nodes their README lines
// describe, at each version of their cniVersions as the runtime picks them
// (containerd 1.7 runs 1.0.0, 2.x 1.1.0 with STATUS).

#include <doctest/doctest.h>

#include "conf_examples.hpp"
#include "flannel_node.hpp"

using namespace wincni::test;
using nlohmann::json;

namespace {

// The plugin's config as a runtime hands it over from the conflist: name and
// the chosen cniVersion injected, the node's paths added.
json plugin_config(const FlannelNode& node, std::string_view conflist, const std::string& version) {
  const json list = json::parse(conflist);
  json plugin = list["plugins"][0];
  plugin["name"] = list["name"];
  plugin["cniVersion"] = version;
  plugin["subnetFile"] = node.subnet_file();
  plugin["dataDir"] = node.scratch_dir();
  plugin["ipam"] = {{"dataDir", node.ipam_dir()}};
  plugin["runtimeConfig"] = {{"portMappings", {{{"hostPort", 8080}, {"containerPort", 80}, {"protocol", "tcp"}}}}};
  return plugin;
}

void pod_lifecycle(const FlannelNode& node, const json& config, const std::string& network) {
  CAPTURE(config["cniVersion"]);
  if (config["cniVersion"] == "1.1.0") {
    const Run status = node.plugin({"STATUS", "", "", config.dump()});
    CHECK_MESSAGE(status.ok(), status.out << status.err);
  }
  const std::string netns = node.create_namespace();
  const json result = node.add("pod1", netns, config.dump());
  json check = config;
  check["prevResult"] = result;
  const Run run = node.plugin({"CHECK", "pod1", netns, check.dump()});
  CHECK_MESSAGE(run.ok(), run.out << run.err);
  const auto endpoint = node.endpoint("pod1_" + network);
  REQUIRE(endpoint);
  CHECK(policies_of(*endpoint, "PortMapping").size() == 1);
  node.del("pod1", netns, config.dump());
  node.check_clean(network);
}

}  // namespace

TEST_CASE("conf-examples/flannel-host-gw.conflist on a flannel host-gw node") {
  FlannelNode node;
  node.host_gw_node();
  for (const std::string version : {"1.0.0", "1.1.0"}) {
    pod_lifecycle(node, plugin_config(node, kFlannelHostGwExample, version), "cbr0");
  }
}

TEST_CASE("conf-examples/flannel-vxlan.conflist on a flannel vxlan node") {
  FlannelNode node;
  node.vxlan_node();
  for (const std::string version : {"1.0.0", "1.1.0"}) {
    pod_lifecycle(node, plugin_config(node, kFlannelVxlanExample, version), "flannel.4096");
  }
}
