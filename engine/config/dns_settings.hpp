#pragma once
// The DNS settings a pod gets: the config's "dns", with the runtime's
// runtimeConfig.dns (the "dns" capability: {servers, searches, options})
// replacing each of nameservers, search and options when it is non-empty.
// The domain comes from the config only; the runtime has no such field.
// When the runtime names the pod's namespace (K8S_POD_NAMESPACE) and gave
// no search list of its own, the config's list gets the pod's entries
// (pod_dns_search.hpp) unless the config sets "podNamespaceDnsSuffix":
// false.

#include <string_view>

#include <nlohmann/json.hpp>

#include "wincni/cni/result.hpp"

namespace wincni::engine {

inline constexpr std::string_view kPodNamespaceSearchKey = "podNamespaceDnsSuffix";

// `config` is the whole network config; `pod_namespace` the runtime's
// K8S_POD_NAMESPACE ("" when it sent none). cni::Error 6 or 7 for a field
// of the wrong type.
cni::Dns effective_dns(const nlohmann::json& config, std::string_view pod_namespace = {});

}  // namespace wincni::engine
