#pragma once
// How an endpoint is named, and how a name is read back (GC needs the
// sandbox a leftover endpoint belonged to).
//
// The name is "<sandboxID>_<network>", as the reference plugins write it, so
// that endpoints survive an upgrade from them. Under dockershim (HNS v1) every
// container of a pod runs ADD: the pause container with CNI_NETNS "none",
// the others with "container:<pause ID>", and all of them share the pause
// container's endpoint. Under containerd CNI_NETNS is a namespace GUID and
// the sandbox is the container itself.

#include <optional>
#include <string>
#include <string_view>

namespace wincni::engine {

// The part after the first ':' of a "container:<id>" netns, else the
// container ID ("none", "", a namespace GUID).
std::string sandbox_id(std::string_view container_id, std::string_view netns);

std::string endpoint_name(std::string_view sandbox, std::string_view network);

// The sandbox ID when `name` is "<sandbox>_<network>" and the sandbox part is
// a valid CNI container ID; nullopt otherwise (flanneld's "cbr0_ep", another
// network's endpoints, hand-made names).
std::optional<std::string> sandbox_of(std::string_view name, std::string_view network);

}  // namespace wincni::engine
