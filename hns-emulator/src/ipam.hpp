#pragma once
// HNS-side IPAM: the address an endpoint gets on its network, either the one
// the caller asked for (checked) or the next free one of the subnet.
//   - the subnet's network and broadcast addresses and its gateway (the next
//     hop of its default route, or the first address unless the subnet sets
//     DoNotReserveGatewayAddress) are never handed out;
//   - an address held by another endpoint of the network is taken.
// HRESULTs: outside every subnet -> HCN_E_INVALID_IP; reserved or taken ->
// HCN_E_ADDR_INVALID_OR_RESERVED; no subnet of the family ->
// HCN_E_SUBNET_NOT_FOUND; subnet full -> ERROR_NO_MORE_ITEMS.

#include <set>

#include "free_pick.hpp"
#include "state.hpp"

namespace wincni::hns::emulator {

// The address the subnet keeps for its gateway, if any.
std::optional<cni::IpAddress> reserved_gateway(const Subnet& subnet);

// A requested address, with the prefix length filled in from its subnet.
IpConfig check_requested_address(const HostComputeNetwork& network, const IpConfig& requested,
                                 const AddressesInUse& in_use);

// A free address (free_pick.hpp: the lowest, or from a random place) of the
// first subnet of `family` that has one.
IpConfig assign_address(const HostComputeNetwork& network, cni::IpFamily family, const AddressesInUse& in_use,
                        PickOrder order);

// The subnet holding `address`, or nullptr.
const Subnet* subnet_of(const HostComputeNetwork& network, const cni::IpAddress& address);

}  // namespace wincni::hns::emulator
