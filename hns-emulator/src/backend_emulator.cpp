// Linux: the HNS emulator is the host.

#include "wincni/hns/backend.hpp"
#include "wincni/hns/emulator/emulator.hpp"

namespace wincni::hns {

std::shared_ptr<HcnApi> default_backend() {
  return std::make_shared<emulator::Emulator>(emulator::EmulatorConfig::from_environment());
}

std::string default_data_dir(const cni::Environment& env) {
  if (auto emulated_host = env.get("WINCNI_EMULATOR_DIR"); emulated_host && !emulated_host->empty()) {
    return *emulated_host + "/wincni";
  }
  return "/var/lib/wincni";
}

}  // namespace wincni::hns
