#pragma once
// Reads a network config into the EndpointConfig a command runs with
// (config.hpp), in every dialect.

#include <optional>
#include <string_view>

#include "wincni/cni/config.hpp"
#include "wincni/engine/config.hpp"
#include "wincni/engine/runtime_netns.hpp"

namespace wincni::engine {

// cni::Error 7 (or 6 for a generic key of the wrong CNI type) naming the
// field for anything malformed. `pod_namespace` is the runtime's
// K8S_POD_NAMESPACE, for the pod's DNS search list (dns_settings.hpp).
EndpointConfig read_endpoint_config(const cni::NetConf& conf, std::string_view pod_namespace = {});

// What DEL needs and nothing more (network, IPAM type, apiVersion when it
// reads), for a config that read_endpoint_config() rejects: a pod's network
// is torn down even when, say, its port mappings name a protocol HNS cannot
// map.
EndpointConfig read_teardown_config(const cni::NetConf& conf);

}  // namespace wincni::engine
