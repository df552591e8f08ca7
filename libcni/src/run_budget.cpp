#include "wincni/cni/run_budget.hpp"

#include <algorithm>

#include "wincni/cni/milliseconds_setting.hpp"

namespace wincni::cni {
namespace {

// Initialised with the program's other statics, before main: as close to
// the start the calling plugin measured from as this process can see. Read
// only once main runs (a static initialiser reading it could see it unset).
const std::chrono::steady_clock::time_point process_start = std::chrono::steady_clock::now();

}  // namespace

std::chrono::milliseconds time_since_start() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - process_start);
}

std::optional<std::chrono::milliseconds> time_left(const Environment& env) {
  const auto budget = milliseconds_setting(env.get_or(kTimeBudgetVariable, ""));
  if (!budget) return std::nullopt;
  return *budget - time_since_start();
}

std::chrono::milliseconds within_budget(const Environment& env, std::chrono::milliseconds limit) {
  const auto left = time_left(env);
  if (!left) return limit;
  return std::min(limit, std::max(*left, std::chrono::milliseconds(0)));
}

std::chrono::milliseconds budget_for_delegate(std::chrono::milliseconds limit) {
  // limit * 3 would overflow for a limit set to mean "for ever".
  return std::max(std::chrono::milliseconds(1), limit - limit / 4);
}

}  // namespace wincni::cni
