#include "wincni/engine/engine.hpp"

namespace wincni::engine {

EndpointEngine::EndpointEngine(const EndpointFlavor& flavor, Backend backend)
    : flavor_(flavor), backend_(std::move(backend)) {}

cni::PluginSpec EndpointEngine::plugin_spec() const {
  cni::PluginSpec spec;
  spec.name = std::string(flavor_.plugin_name());
  spec.description = std::string(flavor_.description());
  spec.add = [this](const cni::CommandContext& ctx) { return add(ctx); };
  spec.del = [this](const cni::CommandContext& ctx) { del(ctx); };
  spec.check = [this](const cni::CommandContext& ctx) { check(ctx); };
  spec.gc = [this](const cni::CommandContext& ctx) { gc(ctx); };
  spec.status = [this](const cni::CommandContext& ctx) { status(ctx); };
  return spec;
}

}  // namespace wincni::engine
