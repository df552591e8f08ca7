// win-overlay's configs in conf-examples/ do what their README lines say, on
// an emulated node set up the way those lines describe.

#include <doctest/doctest.h>

#include "conf_examples.hpp"
#include "emulated_node.hpp"
#include "endpoint_policies.hpp"
#include "pod_dns.hpp"

using namespace wincni;
using namespace wincni::test;
using nlohmann::json;

namespace {

// ADD, CHECK against its result (from CNI 0.4.0 on), DEL; the ADD's result.
json add_check_del(const EmulatedNode& node, const json& config, const std::string& ns) {
  const json result = node.add("pod1", ns, config.dump());
  if (config["cniVersion"] != "0.2.0") {
    json check = config;
    check["prevResult"] = result;
    Run run = node.plugin({"CHECK", "pod1", ns, check.dump()});
    CHECK_MESSAGE(run.ok(), run.out);
  }
  node.del("pod1", ns, config.dump());
  CHECK(node.audit() == "");
  CHECK(node.held_addresses(config["name"]).empty());
  return result;
}

}  // namespace

TEST_CASE("conf-examples/win-overlay-containerd.conf on a flannel vxlan node") {
  EmulatedNode node;
  node.vxlan();
  json config = node.with_scratch_ipam(kOverlayContainerdExample);
  config["runtimeConfig"] = {{"portMappings", {{{"hostPort", 8080}, {"containerPort", 80}, {"protocol", "tcp"}}}}};
  const json result = add_check_del(node, config, node.create_namespace());
  CHECK(result["ips"][0]["gateway"] == "10.244.3.1");
  CHECK(result["interfaces"][0]["mac"] == "0e:2a:0a:f4:03:02");
}

TEST_CASE("conf-examples/win-overlay-dockershim.conf on a flannel vxlan node" * doctest::test_suite("<hns-v1>")) {
  EmulatedNode node;
  node.vxlan();
  const json result = add_check_del(node, node.with_scratch_ipam(kOverlayDockershimExample), "none");
  CHECK(result["ip4"]["gateway"] == "10.244.3.1");
}

TEST_CASE("conf-examples/win-overlay-standalone.conf creates its Overlay network") {
  EmulatedNode node;
  add_check_del(node, node.with_scratch_ipam(kOverlayStandaloneExample), node.create_namespace());
  const auto networks = node.networks();
  REQUIRE(networks.size() == 1);
  CHECK(networks[0]["Name"] == "vxlan-pods");
  CHECK(networks[0]["Type"] == "Overlay");
}

TEST_CASE("conf-examples/win-overlay-openshift.conf: the shape OpenShift's Windows operator writes, taken verbatim") {
  EmulatedNode node;
  // The hybrid overlay's network, which ovn-kubernetes creates as
  // flanneld's vxlan backend would.
  node.vxlan("10.132.2.0/24", "OVNKubernetesHNSNetwork", "4096");
  const json config = node.with_scratch_ipam(kOverlayOpenShiftExample);
  const std::string ns = node.create_namespace();
  const json result = node.add("pod1", ns, config.dump());
  CHECK(result["ip4"]["ip"] == "10.132.2.2/24");
  const auto endpoint = node.endpoint("pod1_OVNKubernetesHNSNetwork");
  REQUIRE(endpoint);
  // The lowercase v2 keys, and "exceptionList" (a v1 name in a v2 object),
  // reach HNS as the policies they mean.
  const auto nat = policies_of(*endpoint, "OutBoundNAT");
  REQUIRE(nat.size() == 1);
  CHECK(nat[0]["Settings"]["Exceptions"] == json{"172.30.0.0/16"});
  const auto routes = policies_of(*endpoint, "SDNRoute");
  REQUIRE(routes.size() == 1);
  CHECK(routes[0]["Settings"]["DestinationPrefix"] == "172.30.0.0/16");
  CHECK(routes[0]["Settings"]["NeedEncap"] == true);
  const auto provider = policies_of(*endpoint, "ProviderAddress");
  REQUIRE(provider.size() == 1);
  CHECK(provider[0]["Settings"]["ProviderAddress"] == "10.0.128.5");
  node.del("pod1", ns, config.dump());
  CHECK(node.audit() == "");
  CHECK(node.held_addresses("OVNKubernetesHNSNetwork").empty());
}

// A pod in namespace prod gets the search list Kubernetes promises, on the
// endpoint and in the result (docs/configuration.md, "Pod DNS").
TEST_CASE("pod DNS: win-overlay's conf-examples with a search list, a pod in prod, HCN and HNS v1" *
          doctest::test_suite("<hns-v1>")) {
  // Named members, not a structured binding: clang 14 cannot capture those.
  for (const auto& entry : {std::pair{kOverlayContainerdExample, 2}, std::pair{kOverlayDockershimExample, 1}}) {
    const std::string_view example = entry.first;
    const int api = entry.second;
    CAPTURE(api);
    EmulatedNode node;
    node.vxlan();
    const json config = node.with_scratch_ipam(example);
    const PodSearchLists lists =
        prod_pod_search(node, config, api == 2 ? node.create_namespace() : "none", "pod1_flannel.4096");
    CHECK(lists.result == prod_search());
    CHECK(lists.endpoint == prod_search());
  }
}
