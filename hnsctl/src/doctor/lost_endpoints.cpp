#include "doctor/lost_endpoints.hpp"

#include <fmt/format.h>

#include "doctor/node_survey.hpp"

namespace wincni::hnsctl::doctor {

std::vector<Leftover> lost_endpoints(const HnsListing& hns, const RuntimeCache& cache,
                                     const std::set<std::string>& our_networks, std::chrono::seconds grace) {
  std::vector<Leftover> found;
  if (cache.attachments.empty()) return found;
  std::set<std::string> networks;
  for (const auto& network : hns.networks) networks.insert(network.name);
  std::set<std::string> endpoints;
  for (const auto& endpoint : hns.endpoints) endpoints.insert(endpoint.name);
  for (const CachedAttachment& attachment : cache.attachments) {
    // A network flanneld has not made again yet is reported as a network
    // problem by the config survey.
    if (!our_networks.contains(attachment.network) || !networks.contains(attachment.network)) continue;
    const std::string name = attachment.container + "_" + attachment.network;
    if (endpoints.contains(name) || younger_than(attachment.path, grace)) continue;
    found.push_back({"pod without endpoint",
                     attachment.path,
                     fmt::format("the runtime still has sandbox {} on network {}, but HNS has no endpoint {} (an HNS "
                                 "restart or crash?): the pod has no network until it is recreated (kubectl delete "
                                 "pod)",
                                 attachment.container, attachment.network, name),
                     {},
                     {}});
  }
  return found;
}

}  // namespace wincni::hnsctl::doctor
