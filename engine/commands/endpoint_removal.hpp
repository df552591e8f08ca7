#pragma once
// Removing an endpoint the engine may remove (its own; see
// endpoint_marker.hpp): every attachment the view shows is undone first,
// then the endpoint is deleted. ADD uses it on what stands in a pod's way;
// DEL and GC keep going past each step instead (best_effort.hpp).

#include "hns/hns_access.hpp"

namespace wincni::engine {

void remove_endpoint(HnsAccess& access, const EndpointView& endpoint);

}  // namespace wincni::engine
