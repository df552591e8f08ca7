#pragma once
// Pieces shared by the HNS objects: network types, DNS, routes.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "wincni/cni/ip.hpp"

namespace wincni::hns {

using Json = nlohmann::json;

enum class NetworkType { NAT, ICS, Transparent, L2Bridge, L2Tunnel, Overlay, Private, Internal, Mirrored };

// Case-insensitive, as clients compare types with EqualFold.
std::optional<NetworkType> parse_network_type(std::string_view text);
std::string_view network_type_name(NetworkType type);

struct SchemaVersion {
  std::uint32_t major = 2;
  std::uint32_t minor = 0;
  friend bool operator==(const SchemaVersion&, const SchemaVersion&) = default;
};

struct Dns {
  std::string domain;
  std::vector<std::string> search;
  std::vector<std::string> server_list;
  std::vector<std::string> options;

  bool empty() const { return domain.empty() && search.empty() && server_list.empty() && options.empty(); }
  static Dns from_json(const Json& value);
  Json to_json() const;
  friend bool operator==(const Dns&, const Dns&) = default;
};

struct Route {
  std::optional<cni::IpAddress> next_hop;
  std::optional<cni::IpPrefix> destination_prefix;
  std::uint16_t metric = 0;

  // 0.0.0.0/0 or ::/0.
  bool is_default() const;
  static Route from_json(const Json& value);
  Json to_json() const;
  friend bool operator==(const Route&, const Route&) = default;
};

// Shared by the readers: an address or prefix field, absent when "" or null;
// SchemaError(Address) when it does not parse.
std::optional<cni::IpAddress> read_address(const Json& object, std::string_view key);
std::optional<cni::IpPrefix> read_prefix(const Json& object, std::string_view key);

// "a, b ,c" -> {"a","b","c"}; "" -> {} (v1 keeps lists as comma strings).
std::vector<std::string> split_list(std::string_view text);
std::string join_list(const std::vector<std::string>& items);

}  // namespace wincni::hns
