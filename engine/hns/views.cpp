#include "wincni/engine/views.hpp"

namespace wincni::engine {

const SubnetView* NetworkView::subnet_of(const cni::IpAddress& address) const {
  for (const SubnetView& subnet : subnets) {
    if (subnet.prefix.contains(address)) return &subnet;
  }
  return nullptr;
}

const SubnetView* NetworkView::first_subnet(cni::IpFamily family) const {
  for (const SubnetView& subnet : subnets) {
    if (subnet.prefix.family() == family) return &subnet;
  }
  return nullptr;
}

}  // namespace wincni::engine
