#include "wincni/endpoint/host_endpoint.hpp"

#include "endpoint_creation.hpp"
#include "rollback.hpp"
#include "wincni/endpoint/endpoint_marker.hpp"

namespace wincni::endpoint {

EndpointView ensure_host_endpoint(HnsHost& host, const NetworkView& network, const HostEndpointPlan& plan,
                                  std::optional<EndpointView> existing, const cni::Logger& log) {
  Rollback rollback(log);
  if (!existing) {
    EndpointSpec spec;
    spec.id = host_endpoint_id(network.id, plan.name);
    spec.name = plan.name;
    spec.network = network.id;
    spec.addresses = plan.addresses;
    existing = create_endpoint_with_id(host, spec, network, log);
    rollback.push("endpoint " + plan.name, [&host, id = spec.id] { host.delete_endpoint(id); });
  }
  if (!host.is_host_attached(*existing)) {
    host.attach_host(*existing);
    log.info("host endpoint {} ({}) attached to the host on network {}", existing->name, existing->id.str(),
             network.name);
  }
  rollback.commit();
  return *existing;
}

}  // namespace wincni::endpoint
