#include "commands/host_endpoint.hpp"

#include "commands/endpoint_creation.hpp"
#include "commands/rollback.hpp"
#include "plan/endpoint_marker.hpp"
#include "wincni/hns/hns_error.hpp"
#include "wincni/hns/hresult.hpp"

namespace wincni::engine {

EndpointView ensure_host_endpoint(HnsAccess& access, const NetworkView& network, const HostEndpointPlan& plan,
                                  std::optional<EndpointView> existing, const cni::Logger& log) {
  Rollback rollback(log);
  if (!existing) {
    EndpointSpec spec;
    spec.id = host_endpoint_id(network.id, plan.name);
    spec.name = plan.name;
    spec.network = network.id;
    spec.addresses = plan.addresses;
    existing = create_endpoint_with_id(access, spec, network, log);
    rollback.push("endpoint " + plan.name, [&access, id = existing->id] { access.delete_endpoint(id); });
  }
  if (!access.is_host_attached(*existing)) {
    try {
      access.attach_host(*existing);
      log.info("host endpoint {} ({}) attached to the host on network {}", existing->name, existing->id.str(),
               network.name);
    } catch (const hns::HnsError& e) {
      // HNS's v1 State is no sure sign of a host attachment (a host showed 1,
      // "created", for an attached endpoint: microsoft/Windows-Containers#563);
      // "already attached" is the answer that it is, taken as success as
      // flanneld and Calico take it (docs/reference/emulator-fidelity.md).
      // Attached to a namespace or a container, "already attached" is not
      // the host's.
      if (e.hresult() != hns::hr::kEndpointAlreadyAttached || !existing->ns.is_null() ||
          !existing->containers.empty()) {
        throw;
      }
      log.info("host endpoint {} ({}) is already attached to the host", existing->name, existing->id.str());
    }
  }
  rollback.commit();
  return *existing;
}

}  // namespace wincni::engine
