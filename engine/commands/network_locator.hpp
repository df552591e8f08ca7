#pragma once
// Finding the network a config names, by name through HNS's filtered query.
// When it is missing, ADD either creates it — when the flavor creates
// networks and the config says how (a blueprint: "master" and a subnet) —
// under a lock in the plugin data dir, so that any number of simultaneous
// first ADDs create exactly one network; or waits for it, a bounded time
// ("networkWaitSeconds"), since whatever creates it (flanneld) does so when
// it starts; then gives up with code 11.

#include <optional>
#include <chrono>
#include <string>

#include "wincni/cni/log.hpp"
#include "wincni/engine/config.hpp"
#include "wincni/engine/flavor.hpp"
#include "hns/hns_access.hpp"

namespace wincni::engine {

// What to check when the config's network is missing and the plugin will
// not create it, for messages.
std::string missing_network_advice(const EndpointConfig& config, const EndpointFlavor& flavor);
// The same, followed by the networks HNS has, by name and type (a typo in
// "name" then shows beside what it should have said).
std::string missing_network_advice(HnsAccess& access, const EndpointConfig& config, const EndpointFlavor& flavor);
// That listing alone (wincni/engine/network_listing.hpp).
std::string networks_hns_has(HnsAccess& access);

// cni::Error cni::kWrongNetworkType naming both types unless the flavor works on it.
void require_accepted_type(const NetworkView& network, const EndpointFlavor& flavor);

// The network ADD creates when the config's is missing: the config's
// blueprint with the flavor's type, HNS gateways and shape for a host whose
// HNS is `version`, under the ID network_marker_id() gives the name, so that
// the plugin knows the network for its own later. nullopt when the flavor
// creates no networks or the config has no blueprint; cni::Error when the
// shape asks for what the host cannot do.
std::optional<NetworkSpec> creatable_network(const EndpointConfig& config, const EndpointFlavor& flavor,
                                             const hns::HnsVersion& version);

// The network, created or waited for as above, of a type the flavor accepts.
// A network it creates gets the flavor's host endpoint with it (both under
// the lock; a failure removes both). The network's host_addresses are
// filled in: those of the flavor's host endpoint, or, while it is missing,
// the ones it would have. On a network of the plugin's own, a host endpoint
// that a dead ADD left missing or unattached is completed first.
// The lock that serialises network creation is waited for at most
// `lock_limit` (cni::Error 11 past it).
NetworkView locate_network(HnsAccess& access, const EndpointConfig& config, const EndpointFlavor& flavor,
                           const std::string& data_dir, std::chrono::milliseconds lock_limit, const cni::Logger& log);

// The file that serialises network creation in `data_dir`.
std::string network_lock_path(const std::string& data_dir);

}  // namespace wincni::engine
