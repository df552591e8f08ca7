#include "commands/plugin_data_dir.hpp"

#include "wincni/hns/backend.hpp"

namespace wincni::engine {

std::string plugin_data_dir(const cni::Environment& env) {
  if (auto dir = env.get("WINCNI_DATA_DIR"); dir && !dir->empty()) return *dir;
  return hns::default_data_dir(env);
}

}  // namespace wincni::engine
