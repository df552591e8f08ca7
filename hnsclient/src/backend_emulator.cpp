// Linux: the HNS emulator is the host.

#include "wincni/hns/backend.hpp"
#include "wincni/hns/emulator/emulator.hpp"

namespace wincni::hns {

std::shared_ptr<HcnApi> default_backend() {
  return std::make_shared<emulator::Emulator>(emulator::EmulatorConfig::from_environment());
}

}  // namespace wincni::hns
