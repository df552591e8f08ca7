#pragma once
// One internal model of a CNI result, encoded to and decoded from every CNI
// version with the conversion rules of the spec (docs/reference/cni-protocol.md §1).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "wincni/cni/ip.hpp"

namespace wincni::cni {

struct Interface {
  std::string name;
  std::string mac;
  std::string sandbox;
  std::optional<int> mtu;   // 1.1.0
  std::string socket_path;  // 1.1.0
  std::string pci_id;       // 1.1.0
};

struct IpConfig {
  IpPrefix address;  // host address with prefix: 10.1.2.5/24
  std::optional<IpAddress> gateway;
  std::optional<int> interface;  // index into interfaces; 0 is kept
};

struct Route {
  IpPrefix dst;
  std::optional<IpAddress> gw;
  std::optional<int> mtu, advmss, priority, table, scope;  // 1.1.0
};

struct Dns {
  std::vector<std::string> nameservers;
  std::string domain;
  std::vector<std::string> search;
  std::vector<std::string> options;
  bool empty() const { return nameservers.empty() && domain.empty() && search.empty() && options.empty(); }
};

struct Result {
  std::vector<Interface> interfaces;
  std::vector<IpConfig> ips;
  std::vector<Route> routes;
  Dns dns;

  // Reads a result written in `version` (a missing "cniVersion" inside the
  // JSON means `version`). Throws cni::Error (code 6 or 1) when the JSON does
  // not fit that version's shape or the version is unknown.
  // This is how a plugin reads prevResult: the JSON's cniVersion must belong
  // to the same family as `version` (the config's), else code 6
  // "result type supports [...] but unmarshalled CNIVersion is ...".
  static Result decode(const nlohmann::json& j, std::string_view version);

  // Reads a result in whatever version it declares (`fallback_version` when
  // it declares none), as a runtime reads a plugin's (or a delegate's)
  // stdout. Throws cni::Error code 1 for an unknown version, 6 for bad shape.
  static Result decode_in_own_version(const nlohmann::json& j, std::string_view fallback_version);

  // Writes the result as `version` requires; throws cni::Error when the
  // conversion is impossible (0.1/0.2 without any IP: code 1) or the version
  // is unknown (code 1). Keys come in the order Go's libcni prints them, so
  // dump() gives Go's bytes: struct order for 0.x, sorted keys for 1.x
  // (except that Go also escapes '<', '>' and '&' inside strings).
  nlohmann::ordered_json encode(std::string_view version) const;
};

// The DNS object as it appears in configs and results ({nameservers, domain,
// search, options}); keys matched case-insensitively like Go's decoder.
// decode_dns throws cni::Error code 6 when a field has the wrong type;
// encode_dns omits empty fields and keeps Go's field order.
Dns decode_dns(const nlohmann::json& j);
nlohmann::ordered_json encode_dns(const Dns& dns);

}  // namespace wincni::cni
