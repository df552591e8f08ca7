#pragma once
// The networks HNS has, by name and type, for a message about a network
// that is missing: a name that is off by a little then shows beside the one
// it should have been.

#include <memory>
#include <string>

#include "wincni/hns/client.hpp"

namespace wincni::engine {

// `; HNS has "cbr0" (L2Bridge), "nat" (NAT)`, or `; HNS has no network`;
// "" when HNS cannot be asked (the listing only helps, it never fails).
std::string networks_hns_has(const std::shared_ptr<hns::HnsClient>& client);

}  // namespace wincni::engine
