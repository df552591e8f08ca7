#pragma once
// How GC recognises the endpoints this plugin created, so that it never
// touches anyone else's (flanneld's cbr0_ep, the reference plugin's, another
// network's):
//   1. the name is "<sandboxID>_<network>" (endpoint_name.hpp), and
//   2. the endpoint's ID is the one this plugin derives from the network's ID
//      and that name.
// HNS keeps an object's ID for its whole life and HCN takes the ID a client
// asks for (the Id of HcnCreateEndpoint; whether HNS v1 keeps a posted "ID"
// is not public, and where it does not the object is made again through HCN:
// hns/hns_access_v1.cpp), so the marker costs no extra state and survives
// plugin restarts and reboots.
// An endpoint with the right name but any other ID was made by someone else.
//
// The ID is a UUID of version 8 (RFC 9562, "custom") whose other 122 bits are
// FNV-1a-128 of "wincni-endpoint/<network ID>/<endpoint name>".

#include <string_view>

#include "wincni/hns/guid.hpp"

namespace wincni::engine {

hns::Guid endpoint_marker_id(const hns::Guid& network, std::string_view endpoint_name);

bool is_marked(const hns::Guid& endpoint_id, const hns::Guid& network, std::string_view endpoint_name);

// The same kind of ID for the other objects the plugin creates, each from
// its own input so that none passes for another:
//   the host's endpoint on a network it created (host_endpoint.hpp):
//     "wincni-host-endpoint/<network ID>/<name>" — never a pod's marker, so
//     GC leaves it alone even when its name looks like "<sandbox>_<network>";
//   a network it created: "wincni-network/<name>". A network with that ID is
//     the plugin's, and so is completing its host side (an ADD that died
//     between creating the network and its bridge endpoint).
hns::Guid host_endpoint_id(const hns::Guid& network, std::string_view endpoint_name);
hns::Guid network_marker_id(std::string_view network_name);

}  // namespace wincni::engine
