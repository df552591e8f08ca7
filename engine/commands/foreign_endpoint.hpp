#pragma once
// An endpoint in a pod's way that the engine did not create — another
// plugin's (the reference win-bridge names its endpoints the same way), an
// operator's, kube-proxy's. The engine never touches one: ADD stops with
// cni::kEndpointInTheWay, naming the endpoint, what it is attached to, and what
// to do.

#include <string_view>

#include "wincni/cni/error.hpp"
#include "hns/hns_access.hpp"

namespace wincni::engine {

// `holds` says what the pod needed of it: "the name pod1_cbr0", "10.244.1.3".
cni::Error endpoint_in_the_way(HnsAccess& access, const EndpointView& endpoint, std::string_view holds,
                               std::string_view plugin);

}  // namespace wincni::engine
