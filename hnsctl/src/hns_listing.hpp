#pragma once
// What HNS holds, listed once: doctor's surveys and the audit read the same
// listing, so they judge one moment, and a node with thousands of endpoints
// is listed once rather than once per survey.

#include <vector>

#include "wincni/hns/client.hpp"

namespace wincni::hnsctl {

struct HnsListing {
  std::vector<hns::HostComputeNetwork> networks;
  std::vector<hns::HostComputeEndpoint> endpoints;
  std::vector<hns::HostComputeNamespace> namespaces;
  std::vector<hns::HostComputeLoadBalancer> load_balancers;
  // Why the load balancers could not be listed ("" when they were): what
  // doctor is for does not depend on them, so their failure stops nothing.
  std::string load_balancers_unread;
};

inline HnsListing list_hns(hns::HnsClient& client) {
  // Load balancers before endpoints: a backend missing from the endpoints
  // listed after them was deleted, not created after the endpoint listing.
  std::vector<hns::HostComputeLoadBalancer> load_balancers;
  std::string unread;
  try {
    load_balancers = client.list_load_balancers();
  } catch (const cni::Error& e) {
    unread = e.msg();
  }
  HnsListing listing{client.list_networks(), client.list_endpoints(), client.list_namespaces(), {}, {}};
  listing.load_balancers = std::move(load_balancers);
  listing.load_balancers_unread = std::move(unread);
  return listing;
}

}  // namespace wincni::hnsctl
