// win-bridge: the endpoint engine with the bridge's rules, carrying
// host-local for its IPAM.

#include "host_local_plugin.hpp"
#include "wincni/bridge/bridge_flavor.hpp"
#include "wincni/cni/plugin_identity.hpp"
#include "wincni/cni/skel.hpp"
#include "wincni/engine/engine.hpp"

WINCNI_PLUGIN_IDENTITY("win-bridge");

int main(int argc, char** argv) {
  const wincni::bridge::BridgeFlavor flavor;
  const wincni::engine::EndpointEngine engine(flavor);
  const wincni::cni::PluginSpec host_local = wincni::hostlocal::host_local_plugin();
  return wincni::cni::plugin_main(engine.plugin_spec(), argc, argv, {&host_local});
}
