#pragma once
// The DNS settings a pod gets: the config's "dns", with the runtime's
// runtimeConfig.dns (the "dns" capability: {servers, searches, options})
// replacing each of nameservers, search and options when it is non-empty.
// The domain comes from the config only; the runtime has no such field.

#include <nlohmann/json.hpp>

#include "wincni/cni/result.hpp"

namespace wincni::engine {

// `config` is the whole network config. cni::Error 6 or 7 for a field of the
// wrong type.
cni::Dns effective_dns(const nlohmann::json& config);

}  // namespace wincni::engine
