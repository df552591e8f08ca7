#pragma once
// What the config asks of HNS that only some HNS versions have: a clear
// cni::Error 2 (unsupported field) naming the setting and the host's version,
// instead of an endpoint that silently lacks it.

#include <vector>

#include "commands/invocation.hpp"

namespace wincni::engine {

// loopbackDSR needs DSR support.
void require_config_features(Invocation& invocation);
// IPv6 addresses need HNS's dual-stack support.
void require_address_features(Invocation& invocation, const std::vector<cni::IpPrefix>& addresses);

}  // namespace wincni::engine
