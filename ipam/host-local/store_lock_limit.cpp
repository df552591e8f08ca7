#include "store_lock_limit.hpp"

#include <algorithm>

#include "wincni/cni/milliseconds_setting.hpp"
#include "wincni/cni/run_budget.hpp"
#include "wincni/hostlocal/store.hpp"

namespace wincni::hostlocal {

std::chrono::milliseconds store_lock_limit(const cni::CommandContext& ctx) {
  if (ctx.env == nullptr) return Store::kLockLimit;
  auto limit =
      cni::milliseconds_setting(ctx.env->get_or("WINCNI_STORE_LOCK_TIMEOUT_MS", "")).value_or(Store::kLockLimit);
  // A delegate stops waiting before its caller gives up on it: the caller
  // then hears why (the lock, its path) instead of a kill, and run in
  // process (carried_plugins.hpp), where nothing could kill it, it ends.
  if (const auto left = cni::time_left(*ctx.env))
    limit = std::min(limit, std::max(*left, std::chrono::milliseconds(0)));
  return limit;
}

}  // namespace wincni::hostlocal
