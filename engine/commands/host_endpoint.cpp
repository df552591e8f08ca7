#include "commands/host_endpoint.hpp"

#include "commands/endpoint_creation.hpp"
#include "commands/rollback.hpp"
#include "plan/endpoint_marker.hpp"

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
    rollback.push("endpoint " + plan.name, [&access, id = spec.id] { access.delete_endpoint(id); });
  }
  if (!access.is_host_attached(*existing)) {
    access.attach_host(*existing);
    log.info("host endpoint {} ({}) attached to the host on network {}", existing->name, existing->id.str(),
             network.name);
  }
  rollback.commit();
  return *existing;
}

}  // namespace wincni::engine
