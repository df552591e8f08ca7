#include "wincni/engine/engine.hpp"

namespace wincni::engine {

EndpointEngine::EndpointEngine(const EndpointFlavor& flavor, Backend backend)
    : flavor_(flavor), backend_(std::move(backend)) {}

cni::PluginSpec EndpointEngine::plugin_spec() const {
  return cni::spec_of(*this, std::string(flavor_.plugin_name()), std::string(flavor_.description()));
}

}  // namespace wincni::engine
