#pragma once
// The HNS emulator behind a DLL's exports: one per process, made on the first
// call from the environment (WINCNI_EMULATOR_DIR & co., see
// wincni/hns/emulator/emulator.hpp), so that the DLLs need no setup call.

#include "wincni/hns/seam.hpp"

namespace wincni::hns::emulator_dll {

HcnApi& emulator();

}  // namespace wincni::hns::emulator_dll
