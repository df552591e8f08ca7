#pragma once
// HNS policies as network configs and HNS write them, for plugins that put
// policies into a config for the engine (flannel generates a delegate's):
// reading a config's own policies in every dialect into the typed model, and
// rendering typed policies in the JSON of either HNS API.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "wincni/engine/config.hpp"
#include "wincni/engine/views.hpp"
#include "wincni/hns/schema/policy.hpp"

namespace wincni::engine {

// The HNS policies a config spells out itself (ConfigPolicy, config.hpp):
// "policies" entries first, then "AdditionalArgs", each in its own order.
//
// Nothing is dropped silently: an entry kind other than EndpointPolicy or
// NetworkPolicy, a policy type HNS does not have, a type on the wrong kind of
// object, unusable settings, and a field the type does not have in the shape
// used are all cni::Error 7 naming the entry. Fields that carry nothing ("",
// false, 0, [], {}, null), which templates write for every field of every
// type, are ignored. One v1 name inside v2 "Settings" is read under its v2
// name, with a warning: OutBoundNAT's "ExceptionList" (OpenShift's template).
// `warnings` gets what was read other than as written.
std::vector<ConfigPolicy> read_config_policies(const nlohmann::json& config, std::vector<std::string>& warnings);

// The HNS JSON array of `policies` for `api`, as HNS is sent it.
nlohmann::json render_policies(const std::vector<hns::Policy>& policies, HnsApi api);

}  // namespace wincni::engine
