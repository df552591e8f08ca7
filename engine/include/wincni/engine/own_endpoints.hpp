#pragma once
// The pods' endpoints this suite created, on every network of the node, told
// from everyone else's by the engine's marker (docs/engine.md, "What GC
// removes"): what `hnsctl doctor` and the tests' invariant checker look at,
// and the only endpoints doctor ever removes. flanneld's cbr0_ep, the host's
// endpoints, kube-proxy's source VIP, another plugin's pods and other
// nodes' remote endpoints never carry the marker.
//
// HCN's lists (Windows Server 2019 and later) are where they are found; HNS
// v1's view of each adds the containers a dockershim pod attached.

#include <memory>
#include <string>
#include <vector>

#include "wincni/hns/client.hpp"
#include "wincni/hns/guid.hpp"

namespace wincni::engine {

struct OwnEndpoint {
  hns::Guid id;
  std::string name;
  hns::Guid network_id;
  std::string network;                  // its network's name
  std::string sandbox;                  // CNI_CONTAINERID of the pod's ADD (the pause container's for dockershim)
  hns::Guid ns;                         // the HCN namespace it is attached to; null when none
  std::vector<std::string> containers;  // the containers it is attached to (HNS v1)
};

std::vector<OwnEndpoint> own_endpoints(const std::shared_ptr<hns::HnsClient>& client);
// The same, picked from listings the caller made (and reads for more than this).
std::vector<OwnEndpoint> own_endpoints(const std::shared_ptr<hns::HnsClient>& client,
                                       const std::vector<hns::HostComputeNetwork>& networks,
                                       const std::vector<hns::HostComputeEndpoint>& endpoints);

// Whether `endpoint` is the host's endpoint the engine made on a network it
// created (the host-endpoint marker of plan/endpoint_marker.hpp): the
// node's vNIC, which the engine attaches again at an ADD that finds it
// unattached.
bool is_own_host_endpoint(const hns::HostComputeEndpoint& endpoint);

// Undoes every attachment either API shows, then deletes it: what DEL does
// for a pod whose runtime never sends DEL. False when it was already gone.
bool remove_own_endpoint(const std::shared_ptr<hns::HnsClient>& client, const OwnEndpoint& endpoint);

}  // namespace wincni::engine
