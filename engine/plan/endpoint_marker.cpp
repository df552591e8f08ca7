#include "plan/endpoint_marker.hpp"

#include <string>

namespace wincni::engine {

namespace {

using u128 = unsigned __int128;

u128 fnv1a_128(std::string_view text) {
  // FNV-1a with the 128-bit offset basis and prime (2^88 + 2^8 + 0x3b).
  u128 hash = (static_cast<u128>(0x6c62272e07bb0142ULL) << 64) | 0x62b821756295c58dULL;
  const u128 prime = (static_cast<u128>(1) << 88) | 0x13bU;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= prime;
  }
  return hash;
}

// A UUID of version 8 made of the hash of `input`.
hns::Guid derived_id(std::string_view input) {
  const u128 hash = fnv1a_128(input);
  const auto high = static_cast<std::uint64_t>(hash >> 64);
  const auto low = static_cast<std::uint64_t>(hash);
  hns::Guid id;
  id.data1 = static_cast<std::uint32_t>(high >> 32);
  id.data2 = static_cast<std::uint16_t>(high >> 16);
  id.data3 = static_cast<std::uint16_t>((high & 0x0FFF) | 0x8000);  // version 8
  for (int i = 0; i < 8; ++i) id.data4[i] = static_cast<std::uint8_t>(low >> (56 - 8 * i));
  id.data4[0] = static_cast<std::uint8_t>((id.data4[0] & 0x3F) | 0x80);  // RFC 9562 variant
  return id;
}

std::string joined(std::string_view purpose, const hns::Guid& network, std::string_view name) {
  std::string input(purpose);
  input += "/" + network.str() + "/";
  input.append(name);
  return input;
}

}  // namespace

hns::Guid endpoint_marker_id(const hns::Guid& network, std::string_view endpoint_name) {
  return derived_id(joined("wincni-endpoint", network, endpoint_name));
}

hns::Guid host_endpoint_id(const hns::Guid& network, std::string_view endpoint_name) {
  return derived_id(joined("wincni-host-endpoint", network, endpoint_name));
}

hns::Guid network_marker_id(std::string_view network_name) {
  std::string input = "wincni-network/";
  input.append(network_name);
  return derived_id(input);
}

bool is_marked(const hns::Guid& endpoint_id, const hns::Guid& network, std::string_view endpoint_name) {
  return endpoint_id == endpoint_marker_id(network, endpoint_name);
}

}  // namespace wincni::engine
