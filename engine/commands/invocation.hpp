#pragma once
// One plugin invocation as the engine's commands see it: the config read in
// every dialect, the HNS API it uses, the host behind it, and where the
// endpoint attaches.

#include <memory>
#include <optional>
#include <string>

#include "wincni/cni/skel.hpp"
#include "wincni/engine/engine.hpp"
#include "hns/hns_access.hpp"

namespace wincni::engine {

// How this invocation relates to the pod's endpoint.
enum class Role {
  Namespace,  // containerd: the endpoint attaches to the HCN namespace in CNI_NETNS
  Sandbox,    // dockershim: the pause container ("none"); it owns the endpoint
  Joiner,     // dockershim: a container joining the pause container's endpoint ("container:<id>")
};

struct Invocation {
  Invocation(const cni::CommandContext& context, const EndpointFlavor& plugin, EndpointConfig read)
      : ctx(context), flavor(plugin), config(std::move(read)) {}

  const cni::CommandContext& ctx;
  const EndpointFlavor& flavor;
  EndpointConfig config;
  std::shared_ptr<hns::HnsClient> client;
  HnsApi api = HnsApi::V2;
  std::unique_ptr<HnsAccess> access;
  Role role = Role::Namespace;
  Attachment attachment;  // where this container attaches (empty namespace for DEL without netns)
  std::string endpoint_name;

  // Reads the config and decides the API and the role. cni::Error 4 when
  // CNI_NETNS does not fit the API the config selects.
  static Invocation open(const cni::CommandContext& ctx, const EndpointFlavor& flavor,
                         const EndpointEngine::Backend& backend);

  // CNI_ARGS' K8S_POD_NAMESPACE, or "" when it names none or does not parse.
  std::string pod_namespace() const;

  const cni::Logger& log() const { return ctx.log(); }
  const cni::Environment& env() const;
};

}  // namespace wincni::engine
