// kube-proxy's remote endpoints on the overlay network: one per pod of
// another node behind a service, with that pod's address (in the other
// node's subnet), a MAC made from it and the other node's provider address
// (kubernetes pkg/proxy/winkernel/hns.go createEndpoint). They live on the
// same network as our pods; win-overlay and hnsctl must never take them for
// leaks or for pods.

#include <doctest/doctest.h>

#include "emulated_node.hpp"
#include "endpoint_policies.hpp"
#include "foreign_endpoint.hpp"
#include "overlay_configs.hpp"

using namespace wincni;
using namespace wincni::test;
using nlohmann::json;

namespace {

// Through HCN (kube-proxy on HNS 9.2+) or HNS v1 (older proxiers).
hns::Guid create_remote_endpoint(const EmulatedNode& node, bool v1, const std::string& address, const std::string& mac,
                                 const std::string& provider_address) {
  hns::HnsClient client = node_client(node);
  auto network = client.find_network_by_name("flannel.4096");
  REQUIRE(network);
  hns::ProviderAddressPolicy provider;
  provider.provider_address = provider_address;
  if (v1) {
    hns::HnsEndpoint settings;
    settings.virtual_network = network->id;
    settings.ip_address = cni::IpAddress::parse(address);
    settings.mac_address = mac;
    settings.is_remote_endpoint = true;
    settings.policies.push_back(hns::Policy{provider});
    return client.create_hns_endpoint(settings).id;
  }
  hns::HostComputeEndpoint settings;
  settings.host_compute_network = network->id;
  settings.ip_configurations.push_back(hns::IpConfig{*cni::IpAddress::parse(address), 0});
  settings.mac_address = mac;
  settings.flags = hns::HostComputeEndpoint::kRemoteEndpoint;
  settings.policies.push_back(hns::Policy{provider});
  return client.create_endpoint(settings).id;
}

}  // namespace

TEST_CASE("kube-proxy's remote endpoints: HNS takes other nodes' addresses and adds L2Driver") {
  EmulatedNode node;
  node.vxlan();
  hns::HnsClient client = node_client(node);
  for (bool v1 : {false, true}) {
    CAPTURE(v1);
    const std::string address = v1 ? "10.244.6.9" : "10.244.5.7";
    const hns::Guid id =
        create_remote_endpoint(node, v1, address, v1 ? "02-11-0a-f4-06-09" : "02-11-0a-f4-05-07", "192.0.2.77");
    auto endpoint = client.find_endpoint(id);
    REQUIRE(endpoint);
    CHECK(endpoint->flags == hns::HostComputeEndpoint::kRemoteEndpoint);
    REQUIRE(endpoint->ip_configurations.size() == 1);
    CHECK(endpoint->ip_configurations[0].ip_address.str() == address);
    CHECK(std::any_of(endpoint->policies.begin(), endpoint->policies.end(),
                      [](const hns::Policy& policy) { return policy.type() == "L2Driver"; }));
  }
}

TEST_CASE("win-overlay's ADD, DEL and GC and hnsctl audit leave kube-proxy's remote endpoints alone") {
  EmulatedNode node;
  node.vxlan();
  const hns::Guid remote_v2 = create_remote_endpoint(node, false, "10.244.5.7", "02-11-0a-f4-05-07", "192.0.2.77");
  const hns::Guid remote_v1 = create_remote_endpoint(node, true, "10.244.6.9", "02-11-0a-f4-06-09", "192.0.2.78");
  CHECK(node.audit() == "");

  const std::string ns = node.create_namespace();
  const json config = overlay_config(node, "1.1.0");
  const json first = node.add("pod1", ns, config.dump());
  CHECK(node.add("pod1", ns, config.dump()) == first);
  json check = config;
  check["prevResult"] = first;
  const Run checked = node.plugin({"CHECK", "pod1", ns, check.dump()});
  CHECK_MESSAGE(checked.ok(), checked.out);
  Run status = node.plugin({"STATUS", "", "", config.dump()});
  CHECK_MESSAGE(status.ok(), status.out);
  CHECK(node.audit() == "");

  node.del("pod1", ns, config.dump());
  json nothing_valid = config;
  nothing_valid["cni.dev/valid-attachments"] = json::array();
  Run gc = node.plugin({"GC", "", "", nothing_valid.dump()});
  CHECK_MESSAGE(gc.ok(), gc.out);
  hns::HnsClient client = node_client(node);
  CHECK(client.find_endpoint(remote_v2));
  CHECK(client.find_endpoint(remote_v1));
  CHECK(node.endpoints().size() == 2);
  CHECK(node.audit() == "");
}
