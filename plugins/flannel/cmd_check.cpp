// CHECK: the delegate checks the pod with the config ADD gave it.

#include "delegate_config.hpp"
#include "flannel_plugin.hpp"
#include "wincni/cni/delegate.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/flannel/pod_delegate.hpp"
#include "wincni/flannel/scratch_store.hpp"

namespace wincni::flannel {

void FlannelPlugin::check(const cni::CommandContext& ctx) const {
  const FlannelConfig config = read_flannel_config(ctx);
  const std::string sandbox = scratch_key(ctx);
  const std::optional<std::string> bytes = ScratchStore(config.data_dir).load(sandbox);
  std::optional<SavedDelegate> saved = bytes ? read_saved_delegate(*bytes) : std::nullopt;
  if (!saved) {
    auto env = read_subnet_env(config.subnet_file);
    if (!env) throw cni::Error(cni::kTryAgainLater, missing_subnet_env_message(config.subnet_file));
    nlohmann::json derived = pod_delegate_config(config, *env, ctx, backend_);
    saved = SavedDelegate{derived.at("type").get<std::string>(), std::move(derived)};
  }
  if (!ctx.config.prev_result_json().is_null()) saved->config["prevResult"] = ctx.config.prev_result_json();
  cni::delegate_check(saved->type, saved->config.dump(), delegate_environment(ctx));
}

}  // namespace wincni::flannel
