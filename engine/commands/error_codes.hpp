#pragma once
// The engine's own error codes (the CNI spec leaves 100 and up to plugins;
// 100 itself is an HNS call failing, hns_error.hpp).

namespace wincni::engine {

// The network the config names is not of a type this plugin works on.
inline constexpr int kWrongNetworkType = 120;
// CHECK: what HNS holds differs from what the runtime was told (prevResult).
inline constexpr int kEndpointMismatch = 121;
// An address IPAM or HNS handed out cannot be used on this network (the
// gateway's, the bridge endpoint's, outside every subnet).
inline constexpr int kUnusableAddress = 122;
// ADD: an endpoint the engine did not create holds the pod's endpoint name
// or its address.
inline constexpr int kEndpointInTheWay = 123;

}  // namespace wincni::engine
