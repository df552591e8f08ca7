#include "wincni/engine/own_endpoints.hpp"

#include <map>

#include "hns/hns_access.hpp"
#include "plan/endpoint_marker.hpp"
#include "plan/endpoint_name.hpp"

namespace wincni::engine {

std::vector<OwnEndpoint> own_endpoints(const std::shared_ptr<hns::HnsClient>& client) {
  return own_endpoints(client, client->list_networks(), client->list_endpoints());
}

std::vector<OwnEndpoint> own_endpoints(const std::shared_ptr<hns::HnsClient>& client,
                                       const std::vector<hns::HostComputeNetwork>& networks,
                                       const std::vector<hns::HostComputeEndpoint>& endpoints) {
  std::map<hns::Guid, std::string> network_names;
  for (const auto& network : networks) network_names.emplace(network.id, network.name);
  std::vector<OwnEndpoint> own;
  for (const auto& endpoint : endpoints) {
    const auto network = network_names.find(endpoint.host_compute_network);
    if (network == network_names.end()) continue;
    const auto sandbox = sandbox_of(endpoint.name, network->second);
    if (!sandbox || !is_marked(endpoint.id, network->first, endpoint.name)) continue;
    OwnEndpoint found{
        endpoint.id, endpoint.name, network->first, network->second, *sandbox, endpoint.host_compute_namespace, {}};
    if (auto v1 = client->get_hns_endpoint(endpoint.id)) found.containers = v1->shared_containers;
    own.push_back(std::move(found));
  }
  return own;
}

bool is_own_host_endpoint(const hns::HostComputeEndpoint& endpoint) {
  return endpoint.id == host_endpoint_id(endpoint.host_compute_network, endpoint.name);
}

bool remove_own_endpoint(const std::shared_ptr<hns::HnsClient>& client, const OwnEndpoint& endpoint) {
  bool found = false;
  for (const HnsApi api : {HnsApi::V2, HnsApi::V1}) {
    const auto access = make_hns_access(api, client);
    const auto view = access->find_endpoint(endpoint.name);
    if (!view || view->id != endpoint.id) continue;
    found = true;
    for (const Attachment& attachment : access->attachments(*view)) access->detach(*view, attachment);
  }
  return found && make_hns_access(HnsApi::V2, client)->delete_endpoint(endpoint.id);
}

}  // namespace wincni::engine
