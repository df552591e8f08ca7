#include "emulator_instance.hpp"

#include "wincni/hns/emulator/emulator.hpp"

namespace wincni::hns::emulator_dll {

HcnApi& emulator() {
  // Never destroyed: the process may be ending (ExitProcess from another
  // thread) while a call is still running on it.
  static auto* instance = new emulator::Emulator(emulator::EmulatorConfig::from_environment());
  return *instance;
}

}  // namespace wincni::hns::emulator_dll
