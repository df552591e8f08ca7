#pragma once
// The addresses of a network's endpoints as the store's index spells them
// (store_layout.hpp): a node's thousands of them are listed, not parsed, and
// asking about one address is one lookup.

#include <string>
#include <unordered_set>

#include "wincni/cni/ip.hpp"

namespace wincni::hns::emulator {
namespace layout {
// An address as an index key: Windows takes no ':' in a file name.
std::string address_key(const cni::IpAddress& address);
}  // namespace layout

class AddressesInUse {
 public:
  explicit AddressesInUse(std::unordered_set<std::string> keys) : keys_(std::move(keys)) {}
  bool contains(const cni::IpAddress& address) const { return keys_.count(layout::address_key(address)) != 0; }

 private:
  std::unordered_set<std::string> keys_;
};

}  // namespace wincni::hns::emulator
