#pragma once
// Reads runtimeConfig.portMappings (PortMapping, config.hpp).

#include <vector>

#include <nlohmann/json.hpp>

#include "wincni/engine/config.hpp"

namespace wincni::engine {

// [{hostPort, containerPort, protocol, hostIP}]. protocol is a name (tcp,
// udp; any case), a protocol number as text or as a JSON number, and
// defaults to tcp when absent. Errors are cni::Error 7 naming the entry, and
// for a protocol HNS cannot map, the protocol as given.
std::vector<PortMapping> read_port_mappings(const nlohmann::json& runtime_config);

}  // namespace wincni::engine
