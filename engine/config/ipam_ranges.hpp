#pragma once
// Reads the address ranges an "ipam" section declares (IpamRange, config.hpp).

#include <vector>

#include <nlohmann/json.hpp>

#include "wincni/engine/config.hpp"

namespace wincni::engine {

// The old single range first, then ranges in order. cni::Error 7 naming the
// field for an address that does not parse; host-local itself checks the
// rest (host bits, ranges outside the subnet) and answers with its messages.
std::vector<IpamRange> read_ipam_ranges(const nlohmann::json& ipam);

}  // namespace wincni::engine
