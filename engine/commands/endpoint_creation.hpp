#pragma once
// Creating an endpoint under an ID the plugin chose (endpoint_marker.hpp).
// A create that failed may still have happened — HNS made the endpoint, then
// the answer was lost — so the ID is removed again after a failure, unless
// HNS said the ID already exists: then that endpoint is not this call's.

#include "wincni/cni/log.hpp"
#include "hns/hns_access.hpp"

namespace wincni::engine {

// `spec.id` must be set. Rethrows the create's error.
EndpointView create_endpoint_with_id(HnsAccess& access, const EndpointSpec& spec, const NetworkView& network,
                                     const cni::Logger& log);

}  // namespace wincni::engine
