#pragma once
// Which free address or MAC HNS hands out. Windows does not give the lowest
// free one: the first endpoint on a fresh NAT network got 172.17.238.81 of
// 172.17.224.0/20 and MAC 00-15-5D-61-13-A1 (microsoft/hcsshim issue 1746).
// How it chooses is not public. The emulator scans from the lowest by
// default, so that tests read well; WINCNI_EMULATOR_HNS_PICKS=random starts
// the scan at a random place, so that nothing may depend on the choice.

#include <cstdint>
#include <functional>
#include <optional>

#include "wincni/hns/emulator/emulator.hpp"

namespace wincni::hns::emulator {

// The largest number of candidates considered in one range: an IPv6 /64 is
// never scanned whole, and what is free is found long before.
inline constexpr std::uint64_t kMaxPickCandidates = std::uint64_t{1} << 32;

// The first index of [0, count) at which `is_free` holds, scanning from 0
// (Lowest) or from a random index and wrapping around (Random); nullopt
// when none is free.
std::optional<std::uint64_t> pick_free(std::uint64_t count, PickOrder order,
                                       const std::function<bool(std::uint64_t)>& is_free);

}  // namespace wincni::hns::emulator
