#include "commands/plugin_data_dir.hpp"

#include "wincni/cni/milliseconds_setting.hpp"
#include "wincni/cni/run_budget.hpp"

#include "wincni/hns/backend.hpp"

namespace wincni::engine {

std::string plugin_data_dir(const cni::Environment& env) {
  if (auto dir = env.get("WINCNI_DATA_DIR"); dir && !dir->empty()) return *dir;
  return hns::default_data_dir(env);
}

std::chrono::milliseconds network_lock_limit(const cni::Environment& env) {
  const auto limit =
      cni::milliseconds_setting(env.get_or("WINCNI_NETWORK_LOCK_TIMEOUT_MS", "")).value_or(std::chrono::minutes(2));
  // A delegate waits no longer than its caller gave it (run_budget.hpp).
  return cni::within_budget(env, limit);
}

}  // namespace wincni::engine
