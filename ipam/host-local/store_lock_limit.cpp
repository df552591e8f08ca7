#include "store_lock_limit.hpp"

#include "wincni/cni/milliseconds_setting.hpp"
#include "wincni/cni/run_budget.hpp"
#include "wincni/hostlocal/store.hpp"

namespace wincni::hostlocal {

std::chrono::milliseconds store_lock_limit(const cni::CommandContext& ctx) {
  if (ctx.env == nullptr) return Store::kLockLimit;
  const auto limit =
      cni::milliseconds_setting(ctx.env->get_or("WINCNI_STORE_LOCK_TIMEOUT_MS", "")).value_or(Store::kLockLimit);
  // A delegate stops waiting before its caller gives up on it: the caller
  // then hears why (the lock, its path) instead of a kill, and run in
  // process (carried_plugins.hpp), where nothing could kill it, it ends.
  return cni::within_budget(*ctx.env, limit);
}

}  // namespace wincni::hostlocal
