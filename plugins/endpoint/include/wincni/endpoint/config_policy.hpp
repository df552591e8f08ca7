#pragma once
// The HNS policies a config spells out itself, in either dialect:
//   containernetworking  "policies":       [{"name":"EndpointPolicy","value":{...}}]
//   Microsoft / legacy   "AdditionalArgs": [{"Name":"EndpointPolicy","Value":{...}}]
// Each value may have the v1 shape ({"Type":"OutBoundNAT","ExceptionList":[..]})
// or the v2 shape ({"Type":"OutBoundNAT","Settings":{"Exceptions":[..]}}); both
// read into the one typed model, so either renders to either API later.
//
// Nothing is dropped silently: an entry kind other than EndpointPolicy or
// NetworkPolicy, a policy type HNS does not have, a type on the wrong kind of
// object, unusable settings, and a field the type does not have in the shape
// used (a v1 "ExceptionList" inside v2 "Settings") are all cni::Error 7
// naming the entry.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "wincni/hns/schema/policy.hpp"

namespace wincni::endpoint {

enum class PolicyTarget { Endpoint, Network };

struct ConfigPolicy {
  PolicyTarget target = PolicyTarget::Endpoint;
  hns::Policy policy;
  std::string origin;  // "policies[2]", "AdditionalArgs[0]": for messages
};

// "policies" entries first, then "AdditionalArgs", each in its own order.
std::vector<ConfigPolicy> read_config_policies(const nlohmann::json& config);

}  // namespace wincni::endpoint
