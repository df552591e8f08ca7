#pragma once
// Whether what an endpoint is attached to still exists: the one rule ADD's
// repair and `hnsctl doctor` use before removing an endpoint of ours. An
// endpoint serves a live sandbox while its HCN namespace exists or a
// container it is attached to (dockershim, HNS v1) still runs in HCS; a
// container HCS no longer knows is gone, and its vNICs with it.

#include <functional>
#include <string>
#include <vector>

#include "wincni/hns/client.hpp"
#include "wincni/hns/guid.hpp"

namespace wincni::engine {

// `ns` (null for none) and `containers` are the endpoint's attachments, from
// both HNS views; `namespace_exists` says whether HNS still has a namespace
// (asked of HNS, or looked up in a list read once). False when it is
// attached to nothing. Errors from HNS or HCS propagate.
bool serves_live_sandbox(hns::HnsClient& client, const hns::Guid& ns, const std::vector<std::string>& containers,
                         const std::function<bool(const hns::Guid&)>& namespace_exists);

}  // namespace wincni::engine
