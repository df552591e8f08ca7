#include "wincni/engine/engine.hpp"

#include "wincni/engine/repair_journal.hpp"

namespace wincni::engine {

EndpointEngine::EndpointEngine(const EndpointFlavor& flavor, Backend backend)
    : flavor_(flavor), backend_(std::move(backend)) {}

cni::PluginSpec EndpointEngine::plugin_spec() const {
  cni::PluginSpec spec = cni::spec_of(*this, std::string(flavor_.plugin_name()), std::string(flavor_.description()));
  spec.repair_journal = repair_journal_path;
  return spec;
}

}  // namespace wincni::engine
