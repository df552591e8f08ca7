// A pod in namespace prod resolves its namespace's services by their short
// name: each win-bridge conf-example gives it the search list Kubernetes
// promises, on the endpoint (HCN Dns.Search, HNS v1 DNSSuffix) and in the
// result (docs/configuration.md, "Pod DNS").

#include <doctest/doctest.h>

#include "conf_examples.hpp"
#include "conflist_plugin.hpp"
#include "emulated_node.hpp"
#include "pod_dns.hpp"

using namespace wincni;
using namespace wincni::test;
using nlohmann::json;

TEST_CASE("pod DNS: every win-bridge conf-example with a search list, a pod in prod, HCN and HNS v1" *
          doctest::test_suite("<hns-v1>")) {
  struct Example {
    const char* name;
    std::string_view text;
    const char* endpoint;  // for pod1
    bool host_gw;          // on flanneld's cbr0; else the config makes its network
  };
  const Example examples[] = {
      {"win-bridge-containerd.conf", kContainerdExample, "pod1_cbr0", true},
      {"win-bridge-dockershim.conf", kDockershimExample, "pod1_cbr0", true},
      {"win-bridge-sdnbridge.conf", kSdnbridgeExample, "pod1_cbr0", true},
      {"win-bridge-standalone.conf", kStandaloneExample, "pod1_l2bridge", false},
      {"win-bridge-dualstack.conf", kDualStackExample, "pod1_l2bridge-ds", false},
  };
  for (const Example& example : examples) {
    for (const int api : {2, 1}) {
      CAPTURE(std::string(example.name));
      CAPTURE(api);
      EmulatedNode node;
      if (example.host_gw) node.host_gw();
      const json config = node.with_scratch_ipam(example.text);
      // On the API the example names; on both when it names none.
      if (config.value("apiVersion", api) != api) continue;
      const std::string netns = api == 2 ? node.create_namespace() : "none";
      const PodSearchLists lists = prod_pod_search(node, config, netns, example.endpoint);
      CHECK(lists.result == prod_search());
      CHECK(lists.endpoint == prod_search());
    }
  }
}

TEST_CASE("pod DNS: conf-examples/win-bridge-containerd.conflist at 1.0.0 and 1.1.0") {
  for (const std::string version : {"1.0.0", "1.1.0"}) {
    CAPTURE(version);
    EmulatedNode node;
    node.host_gw();
    const json config = node.with_scratch_ipam(plugin_from_conflist(kContainerdListExample, version).dump());
    const PodSearchLists lists = prod_pod_search(node, config, node.create_namespace(), "pod1_cbr0");
    CHECK(lists.result == prod_search());
    CHECK(lists.endpoint == prod_search());
  }
}

TEST_CASE("pod DNS: the legacy wincni example names no search list, and gets none" *
          doctest::test_suite("<hns-v1>")) {
  EmulatedNode node;
  node.host_gw("10.10.187.64/26", "l2bridge");
  const json config = node.with_scratch_ipam(kLegacyWincniExample);
  const PodSearchLists lists = prod_pod_search(node, config, "none", "pod1_l2bridge");
  CHECK(lists.result == json::array());
  CHECK(lists.endpoint == json::array());
}

TEST_CASE("pod DNS: the runtime's list wins, the key turns it off, no namespace changes nothing") {
  EmulatedNode node;
  node.host_gw();
  json config = node.with_scratch_ipam(kContainerdExample);
  const std::string ns = node.create_namespace();

  // containerd's pod dnsConfig (the dns capability): the kubelet's list as it is.
  json runtime = config;
  runtime["runtimeConfig"] = {{"dns", {{"Servers", {"10.96.0.10"}}, {"Searches", {"prod.svc.cluster.local", "x"}}}}};
  PodSearchLists lists = prod_pod_search(node, runtime, ns, "pod1_cbr0");
  CHECK(lists.result == json{"prod.svc.cluster.local", "x"});
  CHECK(lists.endpoint == json{"prod.svc.cluster.local", "x"});

  json off = config;
  off["podNamespaceDnsSuffix"] = false;
  lists = prod_pod_search(node, off, ns, "pod1_cbr0");
  CHECK(lists.result == json{"svc.cluster.local"});
  CHECK(lists.endpoint == json{"svc.cluster.local"});

  // A runtime that names no namespace.
  const json result = node.add("pod2", ns, config.dump());
  CHECK(result["dns"]["search"] == json{"svc.cluster.local"});
  node.del("pod2", ns, config.dump());
  CHECK(node.audit() == "");
}
