// win-overlay: the endpoint engine with the overlay's rules, carrying
// host-local for its IPAM.

#include "host_local_plugin.hpp"
#include "wincni/cni/plugin_identity.hpp"
#include "wincni/cni/skel.hpp"
#include "wincni/engine/engine.hpp"
#include "wincni/overlay/overlay_flavor.hpp"

WINCNI_PLUGIN_IDENTITY("win-overlay");

int main(int argc, char** argv) {
  const wincni::overlay::OverlayFlavor flavor;
  const wincni::engine::EndpointEngine engine(flavor);
  const wincni::cni::PluginSpec host_local = wincni::hostlocal::host_local_plugin();
  return wincni::cni::plugin_main(engine.plugin_spec(), argc, argv, {&host_local});
}
