#pragma once
// What CNI_NETNS says about a pod on a Windows node, for every plugin that
// keeps something per pod (the engine's endpoints, flannel's saved delegate
// configs). Under dockershim (HNS v1) every container of a pod runs ADD: the
// pause container with CNI_NETNS "none", the others with
// "container:<pause ID>", and all of them share what the pause container's
// ADD made. Under containerd CNI_NETNS is an HCN namespace GUID and the
// sandbox is the container itself.

#include <optional>
#include <string>
#include <string_view>

#include "wincni/engine/views.hpp"

namespace wincni::engine {

// The part after the first ':' of a "container:<id>" netns, else the
// container ID ("none", "", a namespace GUID).
std::string sandbox_id(std::string_view container_id, std::string_view netns);

// The API a config without apiVersion uses for this CNI_NETNS: a namespace
// GUID means containerd and HCN; "none" and "container:<id>" mean dockershim
// and HNS v1. nullopt when the netns says nothing ("" on DEL).
std::optional<HnsApi> api_for_netns(std::string_view netns);

}  // namespace wincni::engine
