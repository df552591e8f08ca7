#include "wincni/flannel/pod_delegate.hpp"

#include <fmt/format.h>

#include "delegate_config.hpp"
#include "wincni/cni/cni_env.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/cni/json_keys.hpp"
#include "wincni/engine/runtime_netns.hpp"

namespace wincni::flannel {
namespace {

engine::HnsApi api_for(const nlohmann::json& delegate, std::string_view netns) {
  if (const nlohmann::json* version = cni::find_key(delegate, "apiVersion"); version && version->is_number_integer()) {
    if (version->get<long long>() == 1) return engine::HnsApi::V1;
    if (version->get<long long>() == 2) return engine::HnsApi::V2;
  }
  return engine::api_for_netns(netns).value_or(engine::HnsApi::V2);
}

}  // namespace

std::string scratch_key(const cni::CommandContext& ctx) {
  std::string sandbox = engine::sandbox_id(ctx.container_id, ctx.netns);
  if (!cni::is_valid_cni_name(sandbox)) {
    throw cni::Error(cni::kInvalidEnvironment,
                     fmt::format("CNI_NETNS \"{}\" names no valid container ID to join", ctx.netns));
  }
  return sandbox;
}

bool owns_scratch(const cni::CommandContext& ctx) {
  return engine::sandbox_id(ctx.container_id, ctx.netns) == ctx.container_id;
}

nlohmann::json pod_delegate_config(const FlannelConfig& config, const SubnetEnv& env, const cni::CommandContext& ctx,
                                   const HnsBackend& backend) {
  nlohmann::json delegate = delegate_config(config, env);
  if (config.service_networks.empty()) return delegate;
  PolicySources sources = policy_sources(config, env);
  if (!sources.node_ip) sources.node_ip = node_address(config.name, backend);
  merge_generated_policies(delegate, generated_policies(sources), api_for(delegate, ctx.netns));
  return delegate;
}

const cni::Environment& delegate_environment(const cni::CommandContext& ctx) {
  static const cni::Environment empty;
  return ctx.env != nullptr ? *ctx.env : empty;
}

}  // namespace wincni::flannel
