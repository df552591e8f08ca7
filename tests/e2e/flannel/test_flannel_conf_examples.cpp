// flannel's conflists in conf-examples/ on the nodes their README lines
// describe, at each version of their cniVersions as the runtime picks them
// (containerd 1.7 runs 1.0.0, 2.x 1.1.0 with STATUS).

#include <doctest/doctest.h>

#include "conf_examples.hpp"
#include "conflist_plugin.hpp"
#include "flannel_node.hpp"
#include "pod_dns.hpp"

using namespace wincni::test;
using nlohmann::json;

namespace {

// The plugin's config as a runtime hands it over from the conflist: name and
// the chosen cniVersion injected, the node's paths added.
json plugin_config(const FlannelNode& node, std::string_view conflist, const std::string& version) {
  json plugin = plugin_from_conflist(conflist, version);
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

TEST_CASE("conf-examples/flannel-rke2.conflist: the shape RKE2 writes, with its own policies and no serviceCIDR") {
  FlannelNode node;
  node.vxlan_node();
  const json config = plugin_config(node, kFlannelRke2Example, "1.0.0");
  const std::string netns = node.create_namespace();
  const json result = node.add("pod1", netns, config.dump());
  CHECK(result["ips"][0]["address"] == "10.244.4.2/24");
  const auto endpoint = node.endpoint("pod1_flannel.4096");
  REQUIRE(endpoint);
  // The delegate's "Policies", in mixed key case, are what the endpoint
  // gets; without serviceCIDR nothing is generated beside them. flanneld's
  // cluster network joins the exceptions as ipMasqNetwork (as the reference
  // passes it; on an RKE2 node it is 10.42.0.0/16, listed already).
  const auto nat = policies_of(*endpoint, "OutBoundNAT");
  REQUIRE(nat.size() == 1);
  CHECK(nat[0]["Settings"]["Exceptions"] == json{"10.42.0.0/16", "10.43.0.0/16", "10.244.0.0/16"});
  const auto routes = policies_of(*endpoint, "SDNRoute");
  REQUIRE(routes.size() == 1);
  CHECK(routes[0]["Settings"]["DestinationPrefix"] == "10.43.0.0/16");
  const auto provider = policies_of(*endpoint, "ProviderAddress");
  REQUIRE(provider.size() == 1);
  CHECK(provider[0]["Settings"]["ProviderAddress"] == "192.168.1.20");
  json check = config;
  check["prevResult"] = result;
  const Run run = node.plugin({"CHECK", "pod1", netns, check.dump()});
  CHECK_MESSAGE(run.ok(), run.out << run.err);
  node.del("pod1", netns, config.dump());
  node.check_clean("flannel.4096");
}

// A pod in namespace prod, through flannel's delegate: the search list
// Kubernetes promises on the endpoint and in the result
// (docs/configuration.md, "Pod DNS"); rke2's conflist names no search list
// (its runtime's dns capability gives the pod's).
TEST_CASE("pod DNS: flannel's host-gw and vxlan conf-examples, a pod in prod") {
  for (const bool vxlan : {false, true}) {
    CAPTURE(vxlan);
    FlannelNode node;
    vxlan ? node.vxlan_node() : node.host_gw_node();
    const std::string network = vxlan ? "flannel.4096" : "cbr0";
    const json config = plugin_config(node, vxlan ? kFlannelVxlanExample : kFlannelHostGwExample, "1.1.0");
    const PodSearchLists lists = prod_pod_search(node, config, node.create_namespace(), "pod1_" + network);
    CHECK(lists.result == prod_search());
    CHECK(lists.endpoint == prod_search());
    node.check_clean(network);
  }
  FlannelNode node;
  node.vxlan_node();
  const PodSearchLists lists =
      prod_pod_search(node, plugin_config(node, kFlannelRke2Example, "1.0.0"), node.create_namespace(),
                      "pod1_flannel.4096");
  CHECK(lists.result == json::array());
  CHECK(lists.endpoint == json::array());
}
