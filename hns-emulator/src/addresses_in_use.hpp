#pragma once
// Whether an address of a network is taken, asked of the store's index one
// address at a time (store_layout.hpp): a node's thousands of addresses are
// neither listed nor parsed to check or pick one.

#include <functional>
#include <string>

#include "wincni/cni/ip.hpp"

namespace wincni::hns::emulator {
namespace layout {
// An address as an index key: Windows takes no ':' in a file name.
std::string address_key(const cni::IpAddress& address);
}  // namespace layout

class AddressesInUse {
 public:
  using KeyTaken = std::function<bool(const std::string& key)>;
  explicit AddressesInUse(KeyTaken taken) : taken_(std::move(taken)) {}
  bool contains(const cni::IpAddress& address) const { return taken_(layout::address_key(address)); }

 private:
  KeyTaken taken_;
};

}  // namespace wincni::hns::emulator
