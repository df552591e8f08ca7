#include "config/port_mapping.hpp"

#include <fmt/format.h>

#include "wincni/cni/config_fields.hpp"

namespace wincni::engine {

namespace {

constexpr std::uint32_t kTcp = 6;
constexpr std::uint32_t kUdp = 17;

hns::IpProtocol read_protocol(const nlohmann::json& entry, const std::string& path) {
  const nlohmann::json* value = cni::kConfigFields.find(entry, "protocol");
  const std::string field = cni::kConfigFields.join_path(path, "protocol");
  if (value == nullptr) return hns::IpProtocol{kTcp};
  std::string text;
  if (value->is_string()) {
    text = value->get<std::string>();
  } else if (value->is_number_unsigned()) {
    text = std::to_string(value->get<std::uint64_t>());
  } else {
    cni::kConfigFields.fail(field, fmt::format("must be a protocol name or number, not {}", value->dump()));
  }
  hns::IpProtocol protocol;
  if (!hns::parse_ip_protocol(text, protocol)) {
    cni::kConfigFields.fail(field,
                            fmt::format("unknown protocol \"{}\" (expected tcp, udp or a protocol number)", text));
  }
  if (protocol.number != kTcp && protocol.number != kUdp) {
    cni::kConfigFields.fail(field, fmt::format("protocol \"{}\" cannot be mapped by HNS (only tcp and udp)", text));
  }
  return protocol;
}

}  // namespace

std::vector<PortMapping> read_port_mappings(const nlohmann::json& runtime_config) {
  const std::string list_path = "runtimeConfig.portMappings";
  const nlohmann::json* list = cni::kConfigFields.read_array(runtime_config, "portMappings", "runtimeConfig");
  std::vector<PortMapping> mappings;
  if (list == nullptr) return mappings;
  for (size_t i = 0; i < list->size(); ++i) {
    const nlohmann::json& entry = (*list)[i];
    const std::string path = cni::kConfigFields.index_path(list_path, i);
    if (!entry.is_object()) cni::kConfigFields.fail(path, fmt::format("must be an object, not {}", entry.type_name()));
    PortMapping mapping;
    const auto host_port = cni::kConfigFields.read_integer(entry, "hostPort", path, 1, 65535);
    const auto container_port = cni::kConfigFields.read_integer(entry, "containerPort", path, 1, 65535);
    if (!host_port) cni::kConfigFields.fail(cni::kConfigFields.join_path(path, "hostPort"), "is required");
    if (!container_port) cni::kConfigFields.fail(cni::kConfigFields.join_path(path, "containerPort"), "is required");
    mapping.host_port = static_cast<std::uint16_t>(*host_port);
    mapping.container_port = static_cast<std::uint16_t>(*container_port);
    mapping.protocol = read_protocol(entry, path);
    if (auto host_ip = cni::kConfigFields.read_address(entry, "hostIP", path); host_ip && !host_ip->is_zero()) {
      mapping.host_ip = host_ip;
    }
    mappings.push_back(mapping);
  }
  return mappings;
}

}  // namespace wincni::engine
