#pragma once
// wincni-conformance-plugin: the smallest plugin built on libcni's skel, so
// that the CNI protocol itself (docs/reference/cni-protocol.md §4) can be tested
// through the same code every real plugin runs.
//
// Behaviour, driven by keys in the network config:
//   ADD     returns the prevResult unchanged when there is one, else the fixed
//           result (the golden 1.1.0 result, tests/golden/results); with
//           "noAddresses": true, the fixed result without its IPs. Parses
//           CNI_ARGS with the standard keys, as a Kubernetes plugin does.
//   DEL, CHECK, GC, STATUS  succeed and print nothing.
//   "errorCode"/"errorMsg"/"errorDetails"  every command throws that cni::Error.
//   "throwUntyped": true                    every command throws std::runtime_error.
// The environment variable WINCNI_CONFORMANCE_VERSIONS ("0.3.1,0.4.0")
// restricts the versions the plugin claims; unset means all of them.

#include "wincni/cni/env.hpp"
#include "wincni/cni/result.hpp"
#include "wincni/cni/skel.hpp"

namespace wincni::test {

cni::PluginSpec conformance_plugin_spec(const cni::Environment& env);

// The result ADD answers with when the config has no prevResult.
cni::Result conformance_fixed_result();

}  // namespace wincni::test
