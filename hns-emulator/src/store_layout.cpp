#include "store_layout.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "wincni/hns/mac_address.hpp"

namespace wincni::hns::emulator::layout {
namespace {

constexpr std::string_view kObjectSuffix = ".json";

// Windows takes no ':' in a file name; no address has a '-'.
std::string file_safe(std::string text) {
  std::replace(text.begin(), text.end(), ':', '-');
  return text;
}

// Names are the callers' own text (any length, any character): the bucket is
// a hash, and a lookup reads the bucket's endpoints and compares names.
std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  return hash;
}

// The filter compares names that are GUIDs as GUIDs (filter.cpp): one bucket
// for every spelling of one GUID.
std::string normalised_name(const std::string& name) {
  if (auto guid = Guid::parse(name)) return guid->str();
  return name;
}

std::string hex(std::string_view text) {
  std::string out;
  for (unsigned char c : text) out += fmt::format("{:02x}", c);
  return out;
}

}  // namespace

std::string object_file(const char* kind_directory, const Guid& id) {
  return std::string(kind_directory) + "/" + id.str() + std::string(kObjectSuffix);
}

std::optional<Guid> object_id(const std::string& file_name) {
  if (file_name.size() <= kObjectSuffix.size() || !file_name.ends_with(kObjectSuffix)) return std::nullopt;
  return Guid::parse(std::string_view(file_name).substr(0, file_name.size() - kObjectSuffix.size()));
}

std::string members_index(const Guid& network) { return "index/members/" + network.str(); }
std::string addresses_index(const Guid& network) { return "index/addresses/" + network.str(); }
std::string ports_index(const Guid& network) { return "index/ports/" + network.str(); }
std::string names_index(const std::string& name) {
  return fmt::format("index/names/{:016x}", fnv1a(normalised_name(name)));
}
std::string macs_index() { return "index/macs"; }

std::string IndexEntry::file() const { return directory + "/" + key + "/" + endpoint.str(); }

std::string mac_key(std::uint64_t mac) { return fmt::format("{:012x}", mac); }

std::string address_key(const cni::IpAddress& address) { return file_safe(address.str()); }

std::string port_mapping_key(const PortMappingPolicy& mapping) {
  // An IPv4 and an IPv6 mapping of one port are two listeners, not a clash.
  return fmt::format("{}-{}-{}-{}", mapping.protocol.number, mapping.external_port, hex(mapping.vip),
                     (mapping.flags & PortMappingPolicy::kIpv6) != 0 ? 6 : 4);
}

std::vector<IndexEntry> index_entries(const EndpointRecord& record) {
  const HostComputeEndpoint& endpoint = record.endpoint;
  const Guid& network = endpoint.host_compute_network;
  std::vector<IndexEntry> entries;
  entries.push_back({members_index(network), "member", endpoint.id});
  entries.push_back({names_index(endpoint.name), "name", endpoint.id});
  for (const auto& config : endpoint.ip_configurations) {
    entries.push_back({addresses_index(network), address_key(config.ip_address), endpoint.id});
  }
  if (auto mac = MacAddress::parse(endpoint.mac_address)) {
    entries.push_back({macs_index(), mac_key(mac->value()), endpoint.id});
  }
  for (const auto& policy : endpoint.policies) {
    const auto* mapping = policy.as<PortMappingPolicy>();
    // A mapping without an external port clashes with none (HNS picks one).
    if (mapping && mapping->external_port != 0) {
      entries.push_back({ports_index(network), port_mapping_key(*mapping), endpoint.id});
    }
  }
  std::sort(entries.begin(), entries.end());
  entries.erase(std::unique(entries.begin(), entries.end()), entries.end());
  return entries;
}

}  // namespace wincni::hns::emulator::layout
