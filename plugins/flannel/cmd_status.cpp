// STATUS: containerd 2.x asks it on every kubelet status poll (every 5 s)
// and marks the node NotReady on an error, so it answers from one file and
// the delegate's own STATUS, and changes nothing.

#include <fmt/format.h>

#include "delegate_config.hpp"
#include "flannel_plugin.hpp"
#include "wincni/cni/delegate.hpp"
#include "wincni/cni/error.hpp"
#include "wincni/flannel/pod_delegate.hpp"

namespace wincni::flannel {
namespace {

[[noreturn]] void not_available(const std::string& message) { throw cni::Error(cni::kPluginNotAvailable, message); }

}  // namespace

void FlannelPlugin::status(const cni::CommandContext& ctx) const {
  const FlannelConfig config = read_flannel_config(ctx);
  std::optional<SubnetEnv> env;
  nlohmann::json delegate;
  try {
    env = read_subnet_env(config.subnet_file);
    if (!env) not_available(missing_subnet_env_message(config.subnet_file));
    delegate = delegate_config(config, *env);
  } catch (const cni::Error& e) {
    if (e.code() == cni::kPluginNotAvailable) throw;
    not_available(e.msg());
  }
  const std::string type = delegate.at("type").get<std::string>();
  try {
    cni::delegate_status(type, delegate.dump(), delegate_environment(ctx));
  } catch (const cni::Error& e) {
    if (e.code() == cni::kPluginNotAvailable || e.code() == cni::kPluginLimitedConnectivity) throw;
    not_available(fmt::format("the delegate plugin {}: {}", type, e.msg()));
  }
}

}  // namespace wincni::flannel
