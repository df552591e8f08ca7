// ADD: subnet.env (waited for), the delegate config saved, then delegated.

#include "delegate_config.hpp"
#include "flannel_plugin.hpp"
#include "wincni/cni/delegate.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/cni/plugin_path.hpp"
#include "wincni/flannel/pod_delegate.hpp"
#include "wincni/flannel/scratch_store.hpp"

namespace wincni::flannel {

cni::Result FlannelPlugin::add(const cni::CommandContext& ctx) const {
  const FlannelConfig config = read_flannel_config(ctx);
  const std::string sandbox = scratch_key(ctx);
  const SubnetEnv env = wait_for_subnet_env(config.subnet_file, config.subnet_wait);
  const nlohmann::json delegate = pod_delegate_config(config, env, ctx, backend_);
  const std::string type = delegate.at("type").get<std::string>();
  const std::string bytes = delegate.dump();
  ctx.log().info("netconf sent to delegate plugin {}: {}", type, bytes);

  // A delegate this node does not have can have done nothing: refused
  // before anything is saved (code 7).
  cni::find_plugin(type, cni::split_plugin_path(ctx.cni_path));

  // Saved before delegating, as the reference does: whatever the delegate
  // does before it fails or the process dies, a DEL finds what to undo.
  const ScratchStore store(config.data_dir);
  store.save(sandbox, bytes);
  const cni::Environment& environment = delegate_environment(ctx);
  try {
    return cni::delegate_add(type, bytes, delegate.at("cniVersion").get<std::string>(), environment);
  } catch (const cni::Error&) {
    try {
      cni::delegate_del(type, bytes, environment);
    } catch (const cni::Error& e) {
      ctx.log().warn(
          "undoing the failed ADD: the delegate's DEL failed too ({}); the runtime's DEL derives the "
          "same config again from this config and subnet.env",
          e.msg());
    }
    // Not kept for the runtime's DEL: it sends this config again, and a DEL
    // without the file derives the same one; a file kept here would outlive
    // a runtime that gives up (until GC).
    if (owns_scratch(ctx)) {
      try {
        store.remove(sandbox);
      } catch (const cni::Error& e) {
        ctx.log().warn("undoing the failed ADD: {} stays: {}", store.path(sandbox), e.msg());
      }
    }
    throw;
  }
}

}  // namespace wincni::flannel
