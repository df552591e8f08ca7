// win-overlay: the endpoint engine with the overlay's rules.

#include "wincni/cni/skel.hpp"
#include "wincni/engine/engine.hpp"
#include "wincni/overlay/overlay_flavor.hpp"

int main(int argc, char** argv) {
  const wincni::overlay::OverlayFlavor flavor;
  const wincni::engine::EndpointEngine engine(flavor);
  return wincni::cni::plugin_main(engine.plugin_spec(), argc, argv);
}
