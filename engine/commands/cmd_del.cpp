// DEL: idempotent, and it keeps going — detach, delete and the IPAM release
// are each attempted even when another fails; the first failure is reported.
// A missing CNI_NETNS, endpoint or network is not a failure.

#include "commands/best_effort.hpp"
#include "commands/invocation.hpp"
#include "commands/ipam_calls.hpp"
#include "hns/hns_access.hpp"
#include "plan/endpoint_marker.hpp"
#include "wincni/engine/engine.hpp"

namespace wincni::engine {

namespace {

// The views DEL removes the pod's endpoint through: the invocation's API;
// and without CNI_NETNS (containerd sends none when the namespace is already
// gone, whichever API made the endpoint) the other API as well, so that the
// endpoint is found by name and every attachment either view shows is undone
// before it is deleted.
std::vector<HnsAccess*> teardown_views(Invocation& invocation, std::unique_ptr<HnsAccess>& other) {
  std::vector<HnsAccess*> views{invocation.access.get()};
  if (!invocation.ctx.netns.empty()) return views;
  const HnsApi other_api = invocation.api == HnsApi::V2 ? HnsApi::V1 : HnsApi::V2;
  if (other_api == HnsApi::V2 && !invocation.access->supports(hns::Feature::ApiV2)) return views;
  other = make_hns_access(other_api, invocation.client);
  views.push_back(other.get());
  return views;
}

// What DEL may remove under the pod's endpoint name: one of ours
// (endpoint_marker.hpp), or one on the config's network (the reference
// plugins' endpoints, on a node upgraded from them, carry no marker). An
// endpoint of that name on another network is someone else's: a config
// named "ep" and a container named "cbr0" would otherwise take flanneld's
// cbr0_ep.
bool may_remove(HnsAccess& view, const EndpointView& endpoint, const std::string& network) {
  if (is_marked(endpoint.id, endpoint.network, endpoint.name)) return true;
  const auto on = view.find_network(network);
  return on && on->id == endpoint.network;
}

}  // namespace

void EndpointEngine::del(const cni::CommandContext& ctx) const {
  Invocation invocation = Invocation::open(ctx, flavor_, backend_);
  BestEffort teardown(ctx.log());

  if (invocation.role == Role::Joiner) {
    // dockershim: this container leaves the pod's endpoint; the pause
    // container's DEL removes it. Detached only while the endpoint lists it:
    // a repeated DEL finds it gone, and HNS refuses to detach what is not
    // attached (HCN_E_ENDPOINT_NOT_ATTACHED, in the host's language on v1).
    HnsAccess& access = *invocation.access;
    teardown.attempt("detaching " + ctx.container_id, [&] {
      auto endpoint = access.find_endpoint(invocation.endpoint_name);
      if (endpoint && access.is_attached(*endpoint, invocation.attachment))
        access.detach(*endpoint, invocation.attachment);
    });
    teardown.finish();
    return;
  }

  std::unique_ptr<HnsAccess> other;
  teardown.attempt("removing endpoint " + invocation.endpoint_name, [&] {
    HnsAccess* owner = nullptr;
    std::optional<EndpointView> found;
    for (HnsAccess* view : teardown_views(invocation, other)) {
      auto endpoint = view->find_endpoint(invocation.endpoint_name);
      if (!endpoint) continue;
      if (!may_remove(*view, *endpoint, invocation.config.network)) {
        ctx.log().warn("endpoint {} ({}) is on another network than {} and was not made by this plugin: left alone",
                       endpoint->name, endpoint->id.str(), invocation.config.network);
        continue;
      }
      for (const Attachment& attachment : view->attachments(*endpoint)) {
        teardown.attempt("detaching " + endpoint->name, [&] { view->detach(*endpoint, attachment); });
      }
      if (owner == nullptr) {
        owner = view;
        found = std::move(endpoint);
      }
    }
    if (owner == nullptr) return;
    owner->delete_endpoint(found->id);
    ctx.log().info("endpoint {} deleted", found->name);
  });
  const IpamCalls ipam(invocation);
  if (ipam.configured()) teardown.attempt("IPAM release", [&] { ipam.del(); });
  teardown.finish();
}

}  // namespace wincni::engine
