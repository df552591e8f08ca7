// win-bridge: the endpoint engine with the bridge's rules.

#include "wincni/bridge/bridge_flavor.hpp"
#include "wincni/cni/skel.hpp"
#include "wincni/engine/engine.hpp"

int main(int argc, char** argv) {
  const wincni::bridge::BridgeFlavor flavor;
  const wincni::engine::EndpointEngine engine(flavor);
  return wincni::cni::plugin_main(engine.plugin_spec(), argc, argv);
}
