#pragma once
// Where the store keeps what (see state_store.hpp for the whole layout), and
// the index entries an endpoint has. An index entry is an empty file
// "<index directory>/<key>/<endpoint ID>", and a key's directory exists only
// while an entry holds it: whether one address or MAC is taken is one look,
// which keys are taken is one listing, and neither reads an object. An
// endpoint's entries follow from the endpoint alone, so a change writes and
// removes exactly the entries that differ.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "addresses_in_use.hpp"
#include "state.hpp"

namespace wincni::hns::emulator::layout {

inline constexpr const char* kLockFile = "state.lock";
inline constexpr const char* kGlobalsFile = "host.json";
inline constexpr const char* kCommitFile = "commit.json";
inline constexpr const char* kNetworks = "networks";
inline constexpr const char* kEndpoints = "endpoints";
inline constexpr const char* kNamespaces = "namespaces";
inline constexpr const char* kLoadBalancers = "loadbalancers";
inline constexpr const char* kSdnRoutes = "sdnroutes";

// "<kind directory>/<ID>.json"; nullopt from object_id for anything else in
// the directory (an interrupted write's temporary file).
std::string object_file(const char* kind_directory, const Guid& id);
std::optional<Guid> object_id(const std::string& file_name);

// The index directories, relative to the store.
std::string members_index(const Guid& network);    // key "member"
std::string addresses_index(const Guid& network);  // key: the address
std::string ports_index(const Guid& network);      // key: port_mapping_key
std::string names_index(const std::string& name);  // key "name", bucketed by a hash of the name
std::string macs_index();                          // key: mac_key
std::string mac_key(std::uint64_t mac);

struct IndexEntry {
  std::string directory;
  std::string key;
  Guid endpoint;

  std::string file() const;  // relative to the store
  friend auto operator<=>(const IndexEntry&, const IndexEntry&) = default;
};

std::vector<IndexEntry> index_entries(const EndpointRecord& record);

// Mappings that clash on a network have equal keys (host_policies.cpp).
std::string port_mapping_key(const PortMappingPolicy& mapping);

}  // namespace wincni::hns::emulator::layout
