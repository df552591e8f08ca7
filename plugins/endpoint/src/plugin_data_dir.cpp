#include "wincni/endpoint/plugin_data_dir.hpp"

namespace wincni::endpoint {

std::string plugin_data_dir(const cni::Environment& env) {
  if (auto dir = env.get("WINCNI_DATA_DIR"); dir && !dir->empty()) return *dir;
#ifdef _WIN32
  const std::string program_data = env.get_or("ProgramData", "");
  return (program_data.empty() ? std::string("C:\\ProgramData") : program_data) + "\\wincni";
#else
  if (auto emulator = env.get("WINCNI_EMULATOR_DIR"); emulator && !emulator->empty()) return *emulator + "/wincni";
  return "/var/lib/wincni";
#endif
}

}  // namespace wincni::endpoint
