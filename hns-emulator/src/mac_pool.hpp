#pragma once
// MAC addresses for endpoints created without one: a free address
// (free_pick.hpp: the lowest, or from a random place) of the network's
// MacPool, or of the host's default pool (Hyper-V's 00-15-5D prefix),
// unique across the host's virtual switch.

#include "free_pick.hpp"
#include "state.hpp"
#include "wincni/hns/mac_address.hpp"

namespace wincni::hns::emulator {

// The host's default pool, 4096 addresses.
MacRange default_mac_pool();

// ERROR_NO_MORE_ITEMS when the pool is exhausted.
MacAddress allocate_mac(EmulatorState& state, const HostComputeNetwork& network, PickOrder order);

}  // namespace wincni::hns::emulator
