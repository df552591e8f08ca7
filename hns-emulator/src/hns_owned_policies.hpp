#pragma once
// Policies HNS puts on an endpoint that its client never sent, and returns
// with the ones it did:
// - a route for each LocalRoutedVip port mapping: "reflects in hnsendpoint
//   by showing a new policy for the route which is created by the OS"
//   (Azure/azure-container-networking issue 1922);
// - {"Type":"L2Driver"} on remote endpoints, which kube-proxy does not send
//   (microsoft/SDN issue 227, Azure/AKS issue 1367);
// - with `encap_overhead`, EncapOverhead 50 on an Overlay network's
//   endpoints: a captured v1 endpoint shows "EncapOverhead": 50 that its
//   client never set (flannel-io/flannel backend/vxlan
//   vxlan_network_windows_test.go); whether HCN's v2 view lists it as a
//   policy is not public (WINCNI_EMULATOR_ENCAP_OVERHEAD).
// Their exact settings are not public. The emulator's route is an SDNRoute
// to the endpoint's own address (/32 or /128); a client must not read
// meaning into it, only leave it alone.

#include "wincni/hns/schema/hcn.hpp"

namespace wincni::hns::emulator {

// Adds the policies HNS would have added to `endpoint` (settled: addresses
// known), once: calling it again adds nothing.
void add_hns_owned_policies(HostComputeEndpoint& endpoint, const HostComputeNetwork& network, bool encap_overhead);

}  // namespace wincni::hns::emulator
