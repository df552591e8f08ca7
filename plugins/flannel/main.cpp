// flannel: the meta plugin for Windows nodes that run flanneld, carrying
// the plugins it delegates to (win-bridge, win-overlay) and theirs
// (host-local).

#include "flannel_plugin.hpp"
#include "host_local_plugin.hpp"
#include "wincni/bridge/bridge_flavor.hpp"
#include "wincni/cni/plugin_identity.hpp"
#include "wincni/engine/engine.hpp"
#include "wincni/overlay/overlay_flavor.hpp"

WINCNI_PLUGIN_IDENTITY("flannel");

int main(int argc, char** argv) {
  const wincni::flannel::FlannelPlugin plugin;
  const wincni::bridge::BridgeFlavor bridge;
  const wincni::engine::EndpointEngine bridge_engine(bridge);
  const wincni::cni::PluginSpec win_bridge = bridge_engine.plugin_spec();
  const wincni::overlay::OverlayFlavor overlay;
  const wincni::engine::EndpointEngine overlay_engine(overlay);
  const wincni::cni::PluginSpec win_overlay = overlay_engine.plugin_spec();
  const wincni::cni::PluginSpec host_local = wincni::hostlocal::host_local_plugin();
  return wincni::cni::plugin_main(plugin.plugin_spec(), argc, argv, {&win_bridge, &win_overlay, &host_local});
}
