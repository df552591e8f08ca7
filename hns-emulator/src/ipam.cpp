#include "ipam.hpp"

#include "failure.hpp"

namespace wincni::hns::emulator {
namespace {

using cni::IpAddress;
using cni::IpFamily;

bool is_unassignable(const Subnet& subnet, const IpAddress& address) {
  const auto& prefix = subnet.ip_address_prefix;
  if (address == prefix.first()) return true;
  if (address.is_v4() && prefix.length() < 31 && address == prefix.last()) return true;
  auto gateway = reserved_gateway(subnet);
  return gateway && *gateway == address;
}

}  // namespace

std::optional<IpAddress> reserved_gateway(const Subnet& subnet) {
  if (auto gateway = subnet.gateway()) return gateway;
  if (subnet.flags & Subnet::kDoNotReserveGatewayAddress) return std::nullopt;
  return subnet.ip_address_prefix.first().next();
}

const Subnet* subnet_of(const HostComputeNetwork& network, const IpAddress& address) {
  for (const Subnet* subnet : network.subnets()) {
    if (subnet->ip_address_prefix.contains(address)) return subnet;
  }
  return nullptr;
}

IpConfig check_requested_address(const HostComputeNetwork& network, const IpConfig& requested,
                                 const AddressesInUse& in_use) {
  const IpAddress& address = requested.ip_address;
  const Subnet* subnet = subnet_of(network, address);
  if (!subnet) {
    throw HcnFailure(hr::kInvalidIp, address.str() + " is in no subnet of network " + network.name);
  }
  if (is_unassignable(*subnet, address)) {
    throw HcnFailure(hr::kAddrInvalidOrReserved, address.str() + " is reserved in " + subnet->ip_address_prefix.str());
  }
  if (in_use.contains(address)) {
    throw HcnFailure(hr::kAddrInvalidOrReserved,
                     address.str() + " is already used by an endpoint of network " + network.name);
  }
  IpConfig config = requested;
  if (config.prefix_length == 0) config.prefix_length = static_cast<std::uint8_t>(subnet->ip_address_prefix.length());
  return config;
}

IpConfig assign_address(const HostComputeNetwork& network, IpFamily family, const AddressesInUse& in_use,
                        PickOrder order) {
  bool any_subnet = false;
  for (const Subnet* subnet : network.subnets()) {
    const auto& prefix = subnet->ip_address_prefix;
    if (prefix.family() != family) continue;
    any_subnet = true;
    const int host_bits = prefix.first().bits() - prefix.length();
    const std::uint64_t count = host_bits >= 63 ? kMaxPickCandidates : std::uint64_t{1} << host_bits;
    auto offset = pick_free(count, order, [&](std::uint64_t index) {
      IpAddress candidate = prefix.first().plus(index);
      return !is_unassignable(*subnet, candidate) && !in_use.contains(candidate);
    });
    if (offset) return IpConfig{prefix.first().plus(*offset), static_cast<std::uint8_t>(prefix.length())};
  }
  if (!any_subnet) {
    throw HcnFailure(hr::kSubnetNotFound, "network " + network.name + " has no subnet to take an address from");
  }
  throw HcnFailure(hr::kNoMoreItems, "every address of network " + network.name + " is in use");
}

}  // namespace wincni::hns::emulator
