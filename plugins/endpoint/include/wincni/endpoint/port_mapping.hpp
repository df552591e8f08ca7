#pragma once
// runtimeConfig.portMappings, the "portMappings" capability: what the runtime
// asks to publish on the host for this pod.

#include <cstdint>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "wincni/cni/ip.hpp"
#include "wincni/hns/schema/policy.hpp"

namespace wincni::endpoint {

struct PortMapping {
  std::uint16_t host_port = 0;
  std::uint16_t container_port = 0;
  hns::IpProtocol protocol;  // TCP (6) or UDP (17): all HNS can map
  // The host address to publish on (HNS's VIP); nullopt for every address,
  // which is also what "0.0.0.0" and "::" mean.
  std::optional<cni::IpAddress> host_ip;

  friend bool operator==(const PortMapping&, const PortMapping&) = default;
};

// Reads runtimeConfig.portMappings: [{hostPort, containerPort, protocol, hostIP}].
// protocol is a name (tcp, udp; any case), a protocol number as text or as a
// JSON number, and defaults to tcp when absent. Errors are cni::Error 7
// naming the entry, and for a protocol HNS cannot map, the protocol as given.
std::vector<PortMapping> read_port_mappings(const nlohmann::json& runtime_config);

}  // namespace wincni::endpoint
