#pragma once
// What the config asks of HNS that only some HNS versions have: a clear
// cni::Error 2 (unsupported field) naming the setting and the host's version,
// instead of an endpoint that silently lacks it.

#include <vector>

#include "commands/invocation.hpp"

namespace wincni::engine {

// loopbackDSR needs DSR support; a flavor that needs IPAM on the
// invocation's API gets it (else cni::Error 7); IPAM ranges are of families
// the flavor carries (else 2).
void require_config_features(Invocation& invocation);
// Addresses (IPAM gave, or HNS assigned) of families the
// flavor carries, and IPv6 ones only with HNS's dual-stack support: else 2.
void require_address_features(Invocation& invocation, const std::vector<cni::IpPrefix>& addresses);

}  // namespace wincni::engine
