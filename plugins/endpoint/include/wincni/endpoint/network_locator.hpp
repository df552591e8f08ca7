#pragma once
// Finding the network a config names, by name through HNS's filtered query.
// When it is missing, ADD either creates it — when the config says how (a
// blueprint: "master" and a subnet) — under a lock in the plugin data dir,
// so that any number of simultaneous first ADDs create exactly one network;
// or waits for it, a bounded time ("networkWaitSeconds"), since flanneld
// creates its network when it starts; then gives up with code 11.

#include <optional>
#include <string>

#include "wincni/cni/log.hpp"
#include "wincni/endpoint/endpoint_config.hpp"
#include "wincni/endpoint/flavor.hpp"
#include "wincni/endpoint/hns_host.hpp"

namespace wincni::endpoint {

// cni::Error kWrongNetworkType naming both types unless the flavor works on it.
void require_accepted_type(const NetworkView& network, const EndpointFlavor& flavor);

// The network ADD creates from the config's blueprint (which must be there):
// the flavor's type and HNS gateways, under the ID network_marker_id() gives
// the name, so that the plugin knows the network for its own later.
NetworkSpec network_spec(const EndpointConfig& config, const EndpointFlavor& flavor);

// The network, created or waited for as above, of a type the flavor accepts.
// A network it creates gets the flavor's host endpoint with it (both under
// the lock; a failure removes both). The network's host_addresses are
// filled in: those of the flavor's host endpoint, or, while it is missing,
// the ones it would have. On a network of the plugin's own, a host endpoint
// that a dead ADD left missing or unattached is completed first.
NetworkView locate_network(HnsHost& host, const EndpointConfig& config, const EndpointFlavor& flavor,
                           const std::string& data_dir, const cni::Logger& log);

// The file that serialises network creation in `data_dir`.
std::string network_lock_path(const std::string& data_dir);

}  // namespace wincni::endpoint
