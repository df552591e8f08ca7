#include "host.hpp"
#include "v1_views.hpp"

namespace wincni::hns::emulator {

Json Host::network_v2(const NetworkRecord& record) const { return record.network.to_json(); }

HnsNetwork Host::network_v1(const NetworkRecord& record) const { return to_v1(record.network, record.management_ip); }

Json Host::endpoint_v2(const EndpointRecord& record) const {
  Json out = record.endpoint.to_json();
  // HNS always reports the namespace, the null GUID when there is none.
  out["HostComputeNamespace"] = record.endpoint.host_compute_namespace.str();
  return out;
}

HnsEndpoint Host::endpoint_v1(const EndpointRecord& record) const {
  const NetworkRecord* network = state_.find_network(record.endpoint.host_compute_network);
  HnsEndpoint v1 = to_v1(record.endpoint, network ? network->network : HostComputeNetwork{});
  v1.shared_containers = record.shared_containers;
  if (record.shared_containers.size() > 1) {
    v1.state = EndpointState::AttachedSharing;
  } else {
    const bool one_container = !record.shared_containers.empty();
    v1.state = record.attached() && (one_container || !rules_.attached_reads_created) ? EndpointState::Attached
                                                                                      : EndpointState::Created;
  }
  return v1;
}

Json Host::namespace_v2(const HostComputeNamespace& ns) const { return ns.to_json(); }

HnsNamespace Host::namespace_v1(const HostComputeNamespace& ns) const { return to_v1(ns); }

}  // namespace wincni::hns::emulator
