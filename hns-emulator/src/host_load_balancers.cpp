// Load balancers (HcnCreateLoadBalancer & co.): what kube-proxy's winkernel
// proxier makes for every service. The emulator keeps them as given and
// checks what a client can get wrong against the host's HNS version; it
// forwards no packet. What real HNS checks beyond that is not public
// (docs/reference/emulator-fidelity.md).

#include "failure.hpp"
#include "host.hpp"

namespace wincni::hns::emulator {

HostComputeLoadBalancer& Host::load_balancer(const Guid& id) {
  HostComputeLoadBalancer* lb = state_.find_load_balancer(id);
  // As for namespaces: hcsshim's NotFound check reads ERROR_NOT_FOUND.
  if (!lb) throw HcnFailure(hr::kElementNotFound, "no load balancer " + id.str());
  return *lb;
}

void Host::check_load_balancer(const HostComputeLoadBalancer& lb) {
  // DSR and IPv6 load balancers came with later HNS versions (hcsshim's
  // DSRSupported, IPv6DualStackSupported): an older host refuses them.
  if ((lb.flags & HostComputeLoadBalancer::kDsr) && !supports(version(), Feature::Dsr)) {
    throw HcnFailure(hr::kInvalidJson, "HNS " + version().str() + " has no DSR load balancers");
  }
  if ((lb.flags & HostComputeLoadBalancer::kIpv6) && !supports(version(), Feature::Ipv6DualStack)) {
    throw HcnFailure(hr::kInvalidJson, "HNS " + version().str() + " has no IPv6 load balancers");
  }
  for (const LoadBalancerPortMapping& mapping : lb.port_mappings) {
    if (mapping.protocol != 6 && mapping.protocol != 17) {
      throw HcnFailure(hr::kInvalidJson, "a load balancer's port mapping is TCP (6) or UDP (17), not " +
                                             std::to_string(mapping.protocol));
    }
    if (mapping.distribution_type > 2) {
      throw HcnFailure(hr::kInvalidJson, "unknown distribution type " + std::to_string(mapping.distribution_type));
    }
  }
  // The backends exist when it is made; one deleted later stays listed
  // (what hnsctl doctor reports as a dangling load balancer).
  for (const Guid& endpoint_id : lb.host_compute_endpoints) endpoint(endpoint_id);
}

const HostComputeLoadBalancer& Host::create_load_balancer(HostComputeLoadBalancer request, Guid id) {
  id = new_object_id(id, request.id);
  if (state_.find_load_balancer(id)) {
    throw HcnFailure(rules_.duplicate_code.value_or(hr::kAlreadyExists), "load balancer " + id.str() + " exists");
  }
  request.id = id;
  request.schema_version = SchemaVersion{2, 0};
  check_load_balancer(request);
  return state_.add_load_balancer(std::move(request));
}

void Host::modify_load_balancer(const Guid& id, const Json& settings) {
  HostComputeLoadBalancer& lb = load_balancer(id);
  if (!supports(version(), Feature::ModifyLoadbalancer)) {
    throw HcnFailure(hr::kNotImpl, "HNS " + version().str() + " cannot modify a load balancer");
  }
  // hcsshim sends the whole load balancer as it is to be.
  HostComputeLoadBalancer wanted = HostComputeLoadBalancer::from_json(settings);
  wanted.id = id;
  wanted.schema_version = lb.schema_version;
  check_load_balancer(wanted);
  lb = std::move(wanted);
}

void Host::delete_load_balancer(const Guid& id) {
  load_balancer(id);
  state_.erase_load_balancer(id);
}

}  // namespace wincni::hns::emulator
