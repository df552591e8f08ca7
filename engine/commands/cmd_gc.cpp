// GC: removes the endpoints this plugin created on the network (name and ID
// marker, endpoint_marker.hpp) whose sandbox is in no valid attachment, then
// asks IPAM to collect. Nobody else's endpoint is touched.

#include <set>

#include "commands/best_effort.hpp"
#include "commands/endpoint_removal.hpp"
#include "commands/invocation.hpp"
#include "commands/ipam_calls.hpp"
#include "plan/endpoint_marker.hpp"
#include "plan/endpoint_name.hpp"
#include "wincni/engine/engine.hpp"

namespace wincni::engine {

void EndpointEngine::gc(const cni::CommandContext& ctx) const {
  Invocation invocation = Invocation::open(ctx, flavor_, backend_);
  HnsAccess& access = *invocation.access;
  BestEffort collection(ctx.log());

  std::set<std::string> valid;
  for (const cni::Attachment& attachment : ctx.config.valid_attachments()) valid.insert(attachment.container_id);

  collection.attempt("collecting endpoints", [&] {
    const auto network = access.find_network(invocation.config.network);
    if (!network) return;
    for (const EndpointView& endpoint : access.endpoints_of(*network)) {
      const auto sandbox = sandbox_of(endpoint.name, network->name);
      if (!sandbox || !is_marked(endpoint.id, network->id, endpoint.name) || valid.contains(*sandbox)) continue;
      collection.attempt("collecting endpoint " + endpoint.name, [&] {
        remove_endpoint(access, endpoint);
        ctx.log().repair("collected endpoint {} of sandbox {}", endpoint.name, *sandbox);
      });
    }
  });
  const IpamCalls ipam(invocation);
  if (ipam.configured()) collection.attempt("IPAM GC", [&] { ipam.gc(); });
  collection.finish();
}

}  // namespace wincni::engine
