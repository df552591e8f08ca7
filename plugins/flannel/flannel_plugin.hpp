#pragma once
// flannel as the skel runs it: the meta plugin that turns flanneld's lease
// (subnet.env) into a config for the plugin that puts the pod on the
// network (win-bridge on host-gw, win-overlay on vxlan) and hands each
// command on to it (docs/flannel.md).

#include "wincni/cni/result.hpp"
#include "wincni/cni/skel.hpp"
#include "wincni/flannel/node_address.hpp"

namespace wincni::flannel {

class FlannelPlugin {
 public:
  explicit FlannelPlugin(HnsBackend backend = {}) : backend_(std::move(backend)) {}

  // Waits (bounded) for subnet.env, saves the delegate config in the
  // scratch file, delegates; a failed delegation is undone with the
  // delegate's DEL, and the scratch file goes when that succeeds.
  cni::Result add(const cni::CommandContext& ctx) const;
  // Replays the saved config; without one (or an unreadable one) derives it
  // from the config and subnet.env. The scratch file goes only after the
  // delegate's DEL succeeded.
  void del(const cni::CommandContext& ctx) const;
  // The saved config (else the derived one) with the runtime's prevResult.
  void check(const cni::CommandContext& ctx) const;
  // The delegate's GC with the valid attachments, then the scratch files of
  // sandboxes that are not among them.
  void gc(const cni::CommandContext& ctx) const;
  // 50 naming what is missing (subnet.env, the delegate), else the
  // delegate's own STATUS. Reads one file; the delegate runs in process
  // when its file is of this build (carried_plugins.hpp), else starts it.
  void status(const cni::CommandContext& ctx) const;

  // The plugin must outlive the spec.
  cni::PluginSpec plugin_spec() const;

 private:
  HnsBackend backend_;
};

}  // namespace wincni::flannel
