#include "host_endpoint.hpp"

#include "wincni/hns/hns_error.hpp"

namespace wincni::hnsctl {

hns::HnsEndpoint ensure_attached_host_endpoint(hns::HnsClient& client, const hns::Guid& network_id,
                                               const std::string& name, const cni::IpAddress& address) {
  auto endpoint = client.find_hns_endpoint_by_name(name);
  if (endpoint && (endpoint->ip_address != address || endpoint->virtual_network != network_id)) {
    client.delete_hns_endpoint(endpoint->id);
    endpoint.reset();
  }
  if (!endpoint) {
    hns::HnsEndpoint wanted;
    wanted.name = name;
    wanted.ip_address = address;
    wanted.virtual_network = network_id;
    endpoint = client.create_hns_endpoint(wanted);
  }
  try {
    client.attach_host(endpoint->id);
  } catch (const hns::HnsError& error) {
    // What flanneld tolerates too: the endpoint survived a restart attached.
    if (error.hresult() != hns::hr::kEndpointAlreadyAttached) throw;
  }
  return *endpoint;
}

}  // namespace wincni::hnsctl
