// ADD when an endpoint of the pod's name already exists on the network but
// is not one ADD may reuse: not made by win-bridge, attached to another
// namespace, or holding an address IPAM does not confirm. Each is detached,
// deleted and replaced by a fresh one, with nothing left of the old.

#include <doctest/doctest.h>

#include <filesystem>

#include "configs.hpp"
#include "emulated_node.hpp"
#include "foreign_endpoint.hpp"

using namespace wincni;
using namespace wincni::test;
using nlohmann::json;

TEST_CASE("an endpoint of the pod's name that win-bridge did not make is left alone, and the error names it") {
  EmulatedNode node;
  node.host_gw();
  const hns::Guid foreign = create_foreign_endpoint(node, "cbr0", "pod1_cbr0");  // attached to the host
  const std::string ns = node.create_namespace();
  Run run = node.plugin({"ADD", "pod1", ns, bridge_config(node).dump()});
  CHECK(run.code() == 123);
  CHECK(run.msg() == "endpoint \"pod1_cbr0\" (" + foreign.str() + ") holds the name pod1_cbr0, which this pod needs, and "
                     "win-bridge did not create it (another plugin's or an operator's; attached to the host (a node "
                     "endpoint)): it is left alone — remove it (hnsctl endpoint delete " + foreign.str() +
                     ") once nothing uses it");
  CHECK(node_client(node).find_endpoint(foreign));
  CHECK(node.held_addresses("cbr0").empty());
  CHECK(node.audit() == "");
}

TEST_CASE("an orphan of ours holding the address IPAM gives the pod is removed, and the ADD goes on") {
  EmulatedNode node;
  node.host_gw();
  const std::string config = bridge_config(node).dump();
  const std::string old_ns = node.create_namespace();
  json old_config = json::parse(config);
  old_config["runtimeConfig"] = {{"portMappings", {{{"hostPort", 8080}, {"containerPort", 80}, {"protocol", "tcp"}}}}};
  const json first = node.add("old", old_ns, old_config.dump());
  REQUIRE(first["ips"][0]["address"] == "10.244.1.3/24");
  // The node rebooted: host-local's store is gone, the endpoint is not.
  std::filesystem::remove_all(std::filesystem::path(node.ipam_dir()) / "cbr0");

  const std::string ns = node.create_namespace();
  json config_with_port = json::parse(config);
  config_with_port["runtimeConfig"] = old_config["runtimeConfig"];  // the orphan's port mapping went with it
  const json second = node.add("new", ns, config_with_port.dump());
  CHECK(second["ips"][0]["address"] == "10.244.1.3/24");
  CHECK_FALSE(node.endpoint("old_cbr0"));
  CHECK(node.endpoint("new_cbr0"));
  CHECK(node.audit() == "");
}

TEST_CASE("an endpoint someone else made holding the address IPAM gives the pod stops the ADD, named") {
  EmulatedNode node;
  node.host_gw();
  const hns::Guid foreign = create_foreign_endpoint(node, "cbr0", "kube-proxy-vip");  // HNS gives it .3
  const std::string ns = node.create_namespace();
  Run run = node.plugin({"ADD", "pod1", ns, bridge_config(node).dump()});
  CHECK(run.code() == 123);
  CHECK(run.msg().find("endpoint \"kube-proxy-vip\" (" + foreign.str() + ") holds 10.244.1.3") != std::string::npos);
  CHECK(node_client(node).find_endpoint(foreign));
  CHECK_FALSE(node.endpoint("pod1_cbr0"));
  CHECK(node.held_addresses("cbr0").empty());
  CHECK(node.audit() == "");
}

TEST_CASE("an endpoint attached to another namespace is replaced, and that namespace no longer lists it") {
  EmulatedNode node;
  node.host_gw();
  const std::string config = bridge_config(node).dump();
  const std::string old_ns = node.create_namespace();
  const std::string new_ns = node.create_namespace();
  node.add("pod1", old_ns, config);

  node.add("pod1", new_ns, config);  // the sandbox was recreated
  auto endpoint = node.endpoint("pod1_cbr0");
  REQUIRE(endpoint);
  CHECK((*endpoint)["HostComputeNamespace"] == new_ns);
  auto old = node_client(node).find_namespace(*hns::Guid::parse(old_ns));
  REQUIRE(old);
  CHECK(old->endpoint_ids().empty());
  CHECK(node.held_addresses("cbr0").size() == 1);  // the old address went back to host-local
  CHECK(node.audit() == "");
  node.del("pod1", new_ns, config);
  CHECK(node.held_addresses("cbr0").empty());
}

TEST_CASE("an endpoint whose address IPAM does not confirm is replaced with a fresh allocation") {
  EmulatedNode node;
  node.host_gw();
  const std::string config = bridge_config(node).dump();
  const std::string ns = node.create_namespace();
  const json first = node.add("pod1", ns, config);
  REQUIRE(first["ips"][0]["address"] == "10.244.1.3/24");
  // host-local lost the reservation (a wiped data dir).
  REQUIRE(std::filesystem::remove(std::filesystem::path(node.ipam_dir()) / "cbr0" / "10.244.1.3"));

  const json second = node.add("pod1", ns, config);
  CHECK(second["ips"][0]["address"] == "10.244.1.4/24");
  CHECK((*node.endpoint("pod1_cbr0"))["IpConfigurations"][0]["IpAddress"] == "10.244.1.4");
  CHECK(node.held_addresses("cbr0") == std::vector<std::string>{"10.244.1.4"});
  CHECK(node.endpoints().size() == 2);
  CHECK(node.audit() == "");
}
