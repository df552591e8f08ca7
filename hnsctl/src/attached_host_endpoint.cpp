#include "attached_host_endpoint.hpp"

#include "wincni/hns/hns_error.hpp"

namespace wincni::hnsctl {

hns::HnsEndpoint ensure_attached_host_endpoint(hns::HnsClient& client, const hns::Guid& network_id,
                                               const std::string& name, const cni::IpAddress& address) {
  auto attach = [&client](const hns::Guid& id) {
    try {
      client.attach_host(id);
    } catch (const hns::HnsError& error) {
      // What flanneld tolerates too: the endpoint survived a restart attached.
      if (error.hresult() != hns::hr::kEndpointAlreadyAttached) throw;
    }
  };
  const auto existing = client.find_hns_endpoint_by_name(name);
  if (existing && existing->ip_address == address && existing->virtual_network == network_id) {
    attach(existing->id);
    return *existing;
  }
  // The new one first, the old one only once the new one works: a create or
  // attach that fails leaves the node with the endpoint it had
  // (kubernetes/kubernetes#100962's class: kube-proxy without its VIP).
  hns::HnsEndpoint wanted;
  wanted.name = name;
  wanted.ip_address = address;
  wanted.virtual_network = network_id;
  const hns::HnsEndpoint created = client.create_hns_endpoint(wanted);
  try {
    attach(created.id);
  } catch (...) {
    client.delete_hns_endpoint(created.id);
    throw;
  }
  if (existing) client.delete_hns_endpoint(existing->id);
  return created;
}

}  // namespace wincni::hnsctl
