#include "mac_pool.hpp"

#include <set>

#include "failure.hpp"

namespace wincni::hns::emulator {

MacRange default_mac_pool() { return MacRange{"00-15-5D-52-C0-00", "00-15-5D-52-CF-FF"}; }

MacAddress allocate_mac(EmulatorState& state, const HostComputeNetwork& network, PickOrder order) {
  std::vector<MacRange> ranges =
      network.mac_pool.empty() ? std::vector<MacRange>{default_mac_pool()} : network.mac_pool;
  for (const auto& range : ranges) {
    auto start = MacAddress::parse(range.start_mac_address);
    auto end = MacAddress::parse(range.end_mac_address);
    if (!start || !end) continue;  // validated when the network was created
    if (end->value() < start->value()) continue;
    auto offset = pick_free(end->value() - start->value() + 1, order,
                            [&](std::uint64_t index) { return !state.mac_in_use(start->value() + index); });
    if (offset) return MacAddress::from_value(start->value() + *offset);
  }
  throw HcnFailure(hr::kNoMoreItems, "the MAC pool of network " + network.name + " is exhausted");
}

}  // namespace wincni::hns::emulator
