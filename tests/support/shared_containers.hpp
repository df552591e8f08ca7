#pragma once
// The containers HNS v1 shows an endpoint attached to (its
// SharedContainers), read through a client on the node's HNS.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "emulated_node.hpp"
#include "foreign_endpoint.hpp"

namespace wincni::test {

inline std::vector<std::string> shared_containers(const EmulatedNode& node, const std::string& endpoint) {
  auto found = node_client(node).find_hns_endpoint_by_name(endpoint);
  REQUIRE(found);
  return found->shared_containers;
}

}  // namespace wincni::test
