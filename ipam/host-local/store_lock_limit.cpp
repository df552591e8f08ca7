#include "store_lock_limit.hpp"

#include "wincni/cni/milliseconds_setting.hpp"
#include "wincni/hostlocal/store.hpp"

namespace wincni::hostlocal {

std::chrono::milliseconds store_lock_limit(const cni::CommandContext& ctx) {
  if (ctx.env == nullptr) return Store::kLockLimit;
  return cni::milliseconds_setting(ctx.env->get_or("WINCNI_STORE_LOCK_TIMEOUT_MS", "")).value_or(Store::kLockLimit);
}

}  // namespace wincni::hostlocal
