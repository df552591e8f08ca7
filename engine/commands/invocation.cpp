#include "commands/invocation.hpp"

#include "wincni/cni/cni_args.hpp"
#include "wincni/cni/run_budget.hpp"

#include "config/endpoint_config.hpp"

#include <fmt/format.h>

#include "plan/endpoint_name.hpp"
#include "wincni/hns/backend.hpp"

namespace wincni::engine {

namespace {

bool is_dockershim_netns(std::string_view netns) { return netns == "none" || netns.starts_with("container:"); }

HnsApi resolve_api(const std::optional<HnsApi>& configured, std::string_view netns, hns::HnsClient& client) {
  const bool namespace_guid = hns::Guid::parse(netns).has_value();
  const bool dockershim = is_dockershim_netns(netns);
  if (!netns.empty() && !namespace_guid && !dockershim) {
    throw cni::Error(cni::kInvalidEnvironment,
                     fmt::format("CNI_NETNS \"{}\" is neither an HCN namespace GUID (containerd) nor dockershim's "
                                 "\"none\" or \"container:<id>\"",
                                 netns));
  }
  if (configured == HnsApi::V1 && namespace_guid) {
    throw cni::Error(
        cni::kInvalidEnvironment,
        fmt::format("CNI_NETNS {} is an HCN namespace (containerd), but the config sets \"apiVersion\": 1, "
                    "which is for dockershim: set \"apiVersion\": 2 or leave it out",
                    netns));
  }
  if (configured == HnsApi::V2 && dockershim) {
    throw cni::Error(cni::kInvalidEnvironment,
                     fmt::format("CNI_NETNS \"{}\" is dockershim's, but the config sets \"apiVersion\": 2, which "
                                 "needs an HCN namespace GUID: set \"apiVersion\": 1 or leave it out",
                                 netns));
  }
  if (configured) return *configured;
  if (auto from_netns = api_for_netns(netns)) return *from_netns;
  // Nothing says which: the newer API where HNS has it.
  return client.supports(hns::Feature::ApiV2) ? HnsApi::V2 : HnsApi::V1;
}

// The namespace only adds DNS suffixes, and a CNI_ARGS that host-local
// refuses is reported by host-local (Microsoft's plugins also go on
// without it).
std::string pod_namespace(const cni::CommandContext& ctx) {
  try {
    return cni::CniArgs::parse(ctx.cni_args).pod_namespace().value_or("");
  } catch (const cni::Error&) {
    return {};
  }
}

EndpointConfig read_config(const cni::CommandContext& ctx) {
  try {
    return read_endpoint_config(ctx.config, pod_namespace(ctx));
  } catch (const cni::Error& e) {
    if (ctx.command != "DEL") throw;
    ctx.log().warn("the config does not parse ({}); tearing down with what DEL needs", e.msg());
    return read_teardown_config(ctx.config);
  }
}

}  // namespace

Invocation Invocation::open(const cni::CommandContext& ctx, const EndpointFlavor& flavor,
                            const EndpointEngine::Backend& backend) {
  Invocation invocation(ctx, flavor, read_config(ctx));
  for (const std::string& warning : invocation.config.warnings) ctx.log().warn("{}", warning);
  // A delegate (of flannel) ends its HNS calls and its wait for the network
  // by the time its caller gave it (run_budget.hpp): it answers before the
  // caller gives up on it, also in the caller's process, where nothing
  // could kill it.
  hns::CallPolicy policy = hns::CallPolicy::from_environment();
  if (const auto left = ctx.env != nullptr ? cni::time_left(*ctx.env) : std::nullopt) {
    const auto budget = std::max(*left, std::chrono::milliseconds(0));
    policy.deadline = std::chrono::steady_clock::now() + budget;
    invocation.config.network_wait = std::min(invocation.config.network_wait, budget);
  }
  invocation.client = std::make_shared<hns::HnsClient>(backend ? backend() : hns::default_backend(), policy);
  invocation.api = resolve_api(invocation.config.api, ctx.netns, *invocation.client);
  invocation.access = make_hns_access(invocation.api, invocation.client);
  if (invocation.api == HnsApi::V2) {
    invocation.role = Role::Namespace;
    invocation.attachment.ns = hns::Guid::parse(ctx.netns);
  } else {
    invocation.role = ctx.netns.starts_with("container:") ? Role::Joiner : Role::Sandbox;
    invocation.attachment.container = ctx.container_id;
  }
  invocation.endpoint_name = engine::endpoint_name(sandbox_id(ctx.container_id, ctx.netns), invocation.config.network);
  return invocation;
}

std::string Invocation::pod_namespace() const { return engine::pod_namespace(ctx); }

const cni::Environment& Invocation::env() const {
  static const cni::Environment empty;
  return ctx.env != nullptr ? *ctx.env : empty;
}

}  // namespace wincni::engine
