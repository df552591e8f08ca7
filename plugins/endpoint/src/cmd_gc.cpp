// GC: removes the endpoints this plugin created on the network (name and ID
// marker, endpoint_marker.hpp) whose sandbox is in no valid attachment, then
// asks IPAM to collect. Nobody else's endpoint is touched.

#include <set>

#include "best_effort.hpp"
#include "invocation.hpp"
#include "ipam_calls.hpp"
#include "wincni/endpoint/endpoint_marker.hpp"
#include "wincni/endpoint/endpoint_name.hpp"
#include "wincni/endpoint/engine.hpp"

namespace wincni::endpoint {

void EndpointEngine::gc(const cni::CommandContext& ctx) const {
  Invocation invocation = Invocation::open(ctx, flavor_, backend_);
  HnsHost& host = *invocation.host;
  BestEffort collection(ctx.log());

  std::set<std::string> valid;
  for (const cni::Attachment& attachment : ctx.config.valid_attachments()) valid.insert(attachment.container_id);

  collection.attempt("collecting endpoints", [&] {
    const auto network = host.find_network(invocation.config.network);
    if (!network) return;
    for (const EndpointView& endpoint : host.endpoints_of(*network)) {
      const auto sandbox = sandbox_of(endpoint.name, network->name);
      if (!sandbox || !is_marked(endpoint.id, network->id, endpoint.name) || valid.contains(*sandbox)) continue;
      collection.attempt("collecting endpoint " + endpoint.name, [&] {
        for (const Attachment& attachment : host.attachments(endpoint)) host.detach(endpoint, attachment);
        host.delete_endpoint(endpoint.id);
        ctx.log().info("collected endpoint {} of sandbox {}", endpoint.name, *sandbox);
      });
    }
  });
  const IpamCalls ipam(invocation);
  if (ipam.configured()) collection.attempt("IPAM GC", [&] { ipam.gc(); });
  collection.finish();
}

}  // namespace wincni::endpoint
