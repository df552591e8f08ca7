#pragma once
// The HcnApi a plugin or hnsctl uses when nothing else is said: on Windows
// the real HNS (computenetwork.dll / vmcompute.dll from System32); on Linux
// the HNS emulator, with its state in $WINCNI_EMULATOR_DIR (default
// /var/lib/wincni/hns-emulator) and the other WINCNI_EMULATOR_* settings
// from the environment (see emulator/emulator.hpp).

#include <memory>

#include "wincni/hns/seam.hpp"

namespace wincni::hns {

std::shared_ptr<HcnApi> default_backend();

}  // namespace wincni::hns
