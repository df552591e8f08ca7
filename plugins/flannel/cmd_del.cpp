// DEL: the saved delegate config replayed, or one derived when it is gone.

#include "delegate_config.hpp"
#include "flannel_plugin.hpp"
#include "wincni/cni/delegate.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/flannel/pod_delegate.hpp"
#include "wincni/flannel/scratch_store.hpp"

namespace wincni::flannel {
namespace {

// The delegate config ADD would have saved, less the generated policies
// (the delegate finds the pod's endpoint by name); nullopt when subnet.env
// cannot say, and then there is nothing to derive it from.
std::optional<nlohmann::json> derived_for_teardown(const FlannelConfig& config, const cni::CommandContext& ctx) {
  try {
    if (auto env = read_subnet_env(config.subnet_file)) return delegate_config(config, *env);
    ctx.log().warn("{}", missing_subnet_env_message(config.subnet_file));
  } catch (const cni::Error& e) {
    ctx.log().warn("{}", e.msg());
  }
  return std::nullopt;
}

}  // namespace

void FlannelPlugin::del(const cni::CommandContext& ctx) const {
  const FlannelConfig config = read_flannel_config(ctx);
  const std::string sandbox = scratch_key(ctx);
  const ScratchStore store(config.data_dir);
  const std::optional<std::string> bytes = store.load(sandbox);
  const std::optional<SavedDelegate> saved = bytes ? read_saved_delegate(*bytes) : std::nullopt;
  const cni::Environment& environment = delegate_environment(ctx);

  if (saved) {
    cni::delegate_del(saved->type, *bytes, environment);
  } else {
    // The reference's DEL does nothing here, and leaks whatever ADD made.
    if (bytes) ctx.log().warn("{} is not a delegate config; deriving one to tear down with", store.path(sandbox));
    if (auto derived = derived_for_teardown(config, ctx)) {
      cni::delegate_del(derived->at("type").get<std::string>(), derived->dump(), environment);
    } else {
      ctx.log().warn("no saved delegate config for {} and no subnet.env to derive one: nothing to tear down", sandbox);
    }
  }
  if (bytes && owns_scratch(ctx)) store.remove(sandbox);
}

}  // namespace wincni::flannel
