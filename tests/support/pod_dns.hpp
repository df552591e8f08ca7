#pragma once
// A pod in namespace "prod", as containerd and dockershim name it in
// CNI_ARGS, and the DNS search list Kubernetes promises it
// (docs/configuration.md, "Pod DNS"): what each plugin's suite checks on
// the HNS endpoint (HCN's Dns.Search, HNS v1's DNSSuffix) and in the CNI
// result, ADD to DEL, natively and under Wine.

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "emulated_node.hpp"

namespace wincni::test {

// containerd's labels (toCNILabels), the namespace among them.
inline const std::map<std::string, std::string> kProdPod{
    {"CNI_ARGS", "IgnoreUnknown=1;K8S_POD_NAMESPACE=prod;K8S_POD_NAME=web-0;K8S_POD_INFRA_CONTAINER_ID=pod1"}};

// What a pod in prod gets from a config whose search list is
// ["svc.cluster.local"], as every conf-example's is.
inline nlohmann::json prod_search() {
  return nlohmann::json::array({"prod.svc.cluster.local", "svc.cluster.local", "cluster.local"});
}

struct PodSearchLists {
  nlohmann::json result;    // the CNI result's dns.search ([] when it has none)
  nlohmann::json endpoint;  // the endpoint's, as HNS keeps it
};

// The search list HNS keeps on the endpoint `name`: HCN's Dns.Search, or
// HNS v1's DNSSuffix (one string, comma-separated) split at its commas.
inline nlohmann::json endpoint_search(const EmulatedNode& node, const std::string& name, bool v1) {
  if (!v1) {
    const auto endpoint = node.endpoint(name);
    REQUIRE_MESSAGE(endpoint, "no endpoint " << name);
    return endpoint->contains("Dns") ? (*endpoint)["Dns"].value("Search", nlohmann::json::array())
                                     : nlohmann::json::array();
  }
  const Run run = node.hnsctl({"endpoint", "list", "--v1"});
  REQUIRE_MESSAGE(run.ok(), run.report());
  for (const nlohmann::json& endpoint : run.json()) {
    if (endpoint.value("Name", "") != name) continue;
    nlohmann::json list = nlohmann::json::array();
    const std::string suffixes = endpoint.value("DNSSuffix", "");
    for (std::size_t at = 0; at < suffixes.size();) {
      const std::size_t comma = std::min(suffixes.find(',', at), suffixes.size());
      list.push_back(suffixes.substr(at, comma - at));
      at = comma + 1;
    }
    return list;
  }
  FAIL("no HNS v1 endpoint " << name);
  return {};
}

// ADD of pod1 in namespace prod, CHECK against its result with the same
// CNI_ARGS (from CNI 0.4.0 on), DEL; the search lists it had meanwhile.
inline PodSearchLists prod_pod_search(const EmulatedNode& node, const nlohmann::json& config, const std::string& netns,
                                      const std::string& endpoint_name) {
  const bool v1 = netns == "none" || netns.starts_with("container:");  // dockershim
  PodSearchLists lists;
  const nlohmann::json result = node.add("pod1", netns, config.dump(), kProdPod);
  lists.result = result.contains("dns") ? result["dns"].value("search", nlohmann::json::array())
                                        : nlohmann::json::array();
  lists.endpoint = endpoint_search(node, endpoint_name, v1);
  const std::string version = config.value("cniVersion", "");
  if (version != "0.1.0" && version != "0.2.0" && version != "0.3.0" && version != "0.3.1") {
    nlohmann::json check = config;
    check["prevResult"] = result;
    const Run run = node.plugin({"CHECK", "pod1", netns, check.dump(), kProdPod});
    CHECK_MESSAGE(run.ok(), run.report());
  }
  const Run del = node.plugin({"DEL", "pod1", netns, config.dump(), kProdPod});
  CHECK_MESSAGE(del.ok(), del.report());
  CHECK(node.audit() == "");
  return lists;
}

}  // namespace wincni::test
