#pragma once
// How an endpoint is named, and how a name is read back (GC needs the
// sandbox a leftover endpoint belonged to).
//
// The name is "<sandboxID>_<network>" (sandbox_id, runtime_netns.hpp), as
// the reference plugins write it, so that endpoints survive an upgrade from
// them: all containers of a dockershim pod share the pause container's
// endpoint.

#include <optional>
#include <string>
#include <string_view>

#include "wincni/engine/runtime_netns.hpp"

namespace wincni::engine {

std::string endpoint_name(std::string_view sandbox, std::string_view network);

// The sandbox ID when `name` is "<sandbox>_<network>" and the sandbox part is
// a valid CNI container ID; nullopt otherwise (flanneld's "cbr0_ep", another
// network's endpoints, hand-made names).
std::optional<std::string> sandbox_of(std::string_view name, std::string_view network);

}  // namespace wincni::engine
