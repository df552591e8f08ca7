#include "wincni/hns/schema/common.hpp"

#include <array>

#include "wincni/cni/json_keys.hpp"
#include "wincni/hns/schema/json_io.hpp"

namespace wincni::hns {
namespace {

struct TypeName {
  NetworkType type;
  std::string_view name;
};
constexpr std::array kTypeNames{
    TypeName{NetworkType::NAT, "NAT"},
    TypeName{NetworkType::ICS, "ICS"},
    TypeName{NetworkType::Transparent, "Transparent"},
    TypeName{NetworkType::L2Bridge, "L2Bridge"},
    TypeName{NetworkType::L2Tunnel, "L2Tunnel"},
    TypeName{NetworkType::Overlay, "Overlay"},
    TypeName{NetworkType::Private, "Private"},
    TypeName{NetworkType::Internal, "Internal"},
    TypeName{NetworkType::Mirrored, "Mirrored"},
};

std::string trim(std::string_view text) {
  size_t start = text.find_first_not_of(" \t");
  if (start == std::string_view::npos) return {};
  size_t end = text.find_last_not_of(" \t");
  return std::string(text.substr(start, end - start + 1));
}

}  // namespace

std::optional<NetworkType> parse_network_type(std::string_view text) {
  for (const auto& entry : kTypeNames) {
    if (cni::equals_ignore_case(entry.name, text)) return entry.type;
  }
  return std::nullopt;
}

std::string_view network_type_name(NetworkType type) {
  for (const auto& entry : kTypeNames) {
    if (entry.type == type) return entry.name;
  }
  return "NAT";
}

Dns Dns::from_json(const Json& value) {
  Dns dns;
  dns.domain = json_io::read_string(value, "Domain");
  dns.search = json_io::read_strings(value, "Search");
  dns.server_list = json_io::read_strings(value, "ServerList");
  dns.options = json_io::read_strings(value, "Options");
  return dns;
}

Json Dns::to_json() const {
  Json out = Json::object();
  json_io::put_string(out, "Domain", domain);
  json_io::put_strings(out, "Search", search);
  json_io::put_strings(out, "ServerList", server_list);
  json_io::put_strings(out, "Options", options);
  return out;
}

bool Route::is_default() const { return destination_prefix && destination_prefix->length() == 0; }

Route Route::from_json(const Json& value) {
  if (!value.is_object()) throw SchemaError(SchemaError::Kind::Type, "Routes", "each route must be an object");
  Route route;
  route.next_hop = read_address(value, "NextHop");
  route.destination_prefix = read_prefix(value, "DestinationPrefix");
  route.metric = json_io::read_uint<std::uint16_t>(value, "Metric");
  return route;
}

Json Route::to_json() const {
  Json out = Json::object();
  if (next_hop) out["NextHop"] = next_hop->str();
  if (destination_prefix) out["DestinationPrefix"] = destination_prefix->str();
  json_io::put_uint(out, "Metric", metric);
  return out;
}

std::optional<cni::IpAddress> read_address(const Json& object, std::string_view key) {
  std::string text = json_io::read_string(object, key);
  if (text.empty()) return std::nullopt;
  auto address = cni::IpAddress::parse(text);
  if (!address) throw SchemaError(SchemaError::Kind::Address, std::string(key), "not an IP address: \"" + text + "\"");
  return address;
}

std::optional<cni::IpPrefix> read_prefix(const Json& object, std::string_view key) {
  std::string text = json_io::read_string(object, key);
  if (text.empty()) return std::nullopt;
  auto prefix = cni::IpPrefix::parse(text);
  if (!prefix) throw SchemaError(SchemaError::Kind::Address, std::string(key), "not an IP prefix: \"" + text + "\"");
  return prefix;
}

std::vector<std::string> split_list(std::string_view text) {
  std::vector<std::string> items;
  while (!text.empty()) {
    size_t comma = text.find(',');
    std::string item = trim(text.substr(0, comma));
    if (!item.empty()) items.push_back(std::move(item));
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return items;
}

std::string join_list(const std::vector<std::string>& items) {
  std::string joined;
  for (const auto& item : items) {
    if (!joined.empty()) joined += ',';
    joined += item;
  }
  return joined;
}

}  // namespace wincni::hns
