// DEL: idempotent, and it keeps going — detach, delete and the IPAM release
// are each attempted even when another fails; the first failure is reported.
// A missing CNI_NETNS, endpoint or network is not a failure.

#include "best_effort.hpp"
#include "invocation.hpp"
#include "ipam_calls.hpp"
#include "wincni/endpoint/engine.hpp"

namespace wincni::endpoint {

void EndpointEngine::del(const cni::CommandContext& ctx) const {
  Invocation invocation = Invocation::open(ctx, flavor_, backend_);
  HnsHost& host = *invocation.host;
  BestEffort teardown(ctx.log());

  if (invocation.role == Role::Joiner) {
    // dockershim: this container leaves the pod's endpoint; the pause
    // container's DEL removes it.
    teardown.attempt("detaching " + ctx.container_id, [&] {
      if (auto endpoint = host.find_endpoint(invocation.endpoint_name)) host.detach(*endpoint, invocation.attachment);
    });
    teardown.finish();
    return;
  }

  teardown.attempt("removing endpoint " + invocation.endpoint_name, [&] {
    auto endpoint = host.find_endpoint(invocation.endpoint_name);
    if (!endpoint) return;
    for (const Attachment& attachment : host.attachments(*endpoint)) {
      teardown.attempt("detaching " + endpoint->name, [&] { host.detach(*endpoint, attachment); });
    }
    host.delete_endpoint(endpoint->id);
    ctx.log().info("endpoint {} deleted", endpoint->name);
  });
  const IpamCalls ipam(invocation);
  if (ipam.configured()) teardown.attempt("IPAM release", [&] { ipam.del(); });
  teardown.finish();
}

}  // namespace wincni::endpoint
