#pragma once
// How long a host-local command waits for its network's lock:
// Store::kLockLimit, or WINCNI_STORE_LOCK_TIMEOUT_MS from the environment
// (what a test of a held lock sets, to wait less); never longer than the
// time budget the plugin that delegated to it gave it (run_budget.hpp).

#include <chrono>

#include "wincni/cni/skel.hpp"

namespace wincni::hostlocal {

std::chrono::milliseconds store_lock_limit(const cni::CommandContext& ctx);

}  // namespace wincni::hostlocal
