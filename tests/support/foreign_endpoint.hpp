#pragma once
// An endpoint the plugin under test did not create (as the reference plugin or an
// operator would leave one), made straight through the typed client on the
// node's emulator, attached to the host so that it is not a leak.

#include <memory>
#include <string>

#include "emulated_node.hpp"
#include "wincni/hns/client.hpp"
#include "wincni/hns/emulator/emulator.hpp"

namespace wincni::test {

inline hns::HnsClient node_client(const EmulatedNode& node) {
  hns::emulator::EmulatorConfig config;
  config.state_dir = node.path("hns");
  return hns::HnsClient(std::make_shared<hns::emulator::Emulator>(config));
}

// `address`, when given, is the endpoint's (as kube-proxy's source VIP
// endpoint holds one); else HNS picks one from the network's subnet.
inline hns::Guid create_foreign_endpoint(const EmulatedNode& node, const std::string& network_name,
                                         const std::string& name, const std::string& address = "") {
  hns::HnsClient client = node_client(node);
  auto network = client.find_network_by_name(network_name);
  REQUIRE(network);
  hns::HostComputeEndpoint settings;
  settings.name = name;
  settings.host_compute_network = network->id;
  if (!address.empty()) {
    const auto parsed = cni::IpAddress::parse(address);
    REQUIRE(parsed);
    settings.ip_configurations.push_back({*parsed, 0});
  }
  hns::HostComputeEndpoint created = client.create_endpoint(settings);
  client.attach_host(created.id);
  return created.id;
}

}  // namespace wincni::test
