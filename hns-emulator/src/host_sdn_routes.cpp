// SDN routes (HcnCreateSdnRoute & co.): routes HNS programs for the listed
// endpoints. Kept as given, their endpoints checked; HNS has no modify for
// them (hcsshim replaces one by delete and create).

#include "failure.hpp"
#include "host.hpp"
#include "wincni/cni/ip.hpp"

namespace wincni::hns::emulator {

HostComputeRoute& Host::sdn_route(const Guid& id) {
  HostComputeRoute* route = state_.find_sdn_route(id);
  if (!route) throw HcnFailure(hr::kElementNotFound, "no SDN route " + id.str());
  return *route;
}

const HostComputeRoute& Host::create_sdn_route(HostComputeRoute request, Guid id) {
  id = new_object_id(id, request.id);
  if (state_.find_sdn_route(id)) {
    throw HcnFailure(rules_.duplicate_code.value_or(hr::kAlreadyExists), "SDN route " + id.str() + " exists");
  }
  if (request.settings.empty()) throw HcnFailure(hr::kInvalidJson, "an SDN route needs a Setting");
  for (const SdnRouteSetting& setting : request.settings) {
    if (!cni::IpPrefix::parse(setting.destination_prefix) || !cni::IpAddress::parse(setting.next_hop)) {
      throw HcnFailure(hr::kInvalidJson, "an SDN route needs a DestinationPrefix and a NextHop address");
    }
  }
  for (const Guid& endpoint_id : request.host_compute_endpoints) endpoint(endpoint_id);
  request.id = id;
  request.schema_version = SchemaVersion{2, 0};
  return state_.add_sdn_route(std::move(request));
}

void Host::delete_sdn_route(const Guid& id) {
  sdn_route(id);
  state_.erase_sdn_route(id);
}

}  // namespace wincni::hns::emulator
