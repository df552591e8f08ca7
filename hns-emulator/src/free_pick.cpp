#include "free_pick.hpp"

#include <algorithm>
#include <random>

namespace wincni::hns::emulator {

std::optional<std::uint64_t> pick_free(std::uint64_t count, PickOrder order,
                                       const std::function<bool(std::uint64_t)>& is_free) {
  count = std::min(count, kMaxPickCandidates);
  if (count == 0) return std::nullopt;
  std::uint64_t start = 0;
  if (order == PickOrder::Random) {
    std::random_device seed;
    std::mt19937_64 generator((std::uint64_t{seed()} << 32) ^ seed());
    start = std::uniform_int_distribution<std::uint64_t>(0, count - 1)(generator);
  }
  for (std::uint64_t step = 0; step < count; ++step) {
    std::uint64_t index = (start + step) % count;
    if (is_free(index)) return index;
  }
  return std::nullopt;
}

}  // namespace wincni::hns::emulator
