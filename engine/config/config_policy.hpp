#pragma once
// Reads the HNS policies a config spells out itself (ConfigPolicy, config.hpp):
// "policies" entries first, then "AdditionalArgs", each in its own order.
//
// Nothing is dropped silently: an entry kind other than EndpointPolicy or
// NetworkPolicy, a policy type HNS does not have, a type on the wrong kind of
// object, unusable settings, and a field the type does not have in the shape
// used (a v1 "ExceptionList" inside v2 "Settings") are all cni::Error 7
// naming the entry.

#include <vector>

#include <nlohmann/json.hpp>

#include "wincni/engine/config.hpp"

namespace wincni::engine {

std::vector<ConfigPolicy> read_config_policies(const nlohmann::json& config);

}  // namespace wincni::engine
