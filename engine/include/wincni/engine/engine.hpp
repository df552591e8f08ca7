#pragma once
// The endpoint engine: ADD, DEL, CHECK, GC and STATUS for a plugin that puts
// pods on an HNS network (docs/engine.md describes the flows). A plugin
// is a flavor plus EndpointEngine::plugin_spec() handed to the skel.

#include <functional>
#include <memory>

#include <nlohmann/json.hpp>

#include "wincni/cni/result.hpp"
#include "wincni/cni/skel.hpp"
#include "wincni/engine/flavor.hpp"
#include "wincni/hns/seam.hpp"

namespace wincni::engine {

class EndpointEngine {
 public:
  // Where HNS is: the real one on Windows, the emulator on Linux
  // (hns::default_backend); tests hand in their own emulator.
  using Backend = std::function<std::shared_ptr<hns::HcnApi>()>;

  explicit EndpointEngine(const EndpointFlavor& flavor, Backend backend = {});

  cni::Result add(const cni::CommandContext& ctx) const;
  void del(const cni::CommandContext& ctx) const;
  void check(const cni::CommandContext& ctx) const;
  void gc(const cni::CommandContext& ctx) const;
  void status(const cni::CommandContext& ctx) const;
  // What ADD would do with `ctx`, without doing it (hnsctl explain): the
  // API and why, the network, the IPAM request, the endpoint, its policies
  // with their origins, the config's warnings and what would make ADD fail.
  // cni::Error when the config or CNI_NETNS cannot be read at all.
  nlohmann::ordered_json explain(const cni::CommandContext& ctx) const;

  // Name, description and the five handlers, for the skel. The engine must
  // outlive the spec.
  cni::PluginSpec plugin_spec() const;

 private:
  const EndpointFlavor& flavor_;
  Backend backend_;
};

}  // namespace wincni::engine
