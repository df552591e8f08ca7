#pragma once
// Where the engine keeps what its processes share: the lock that lets only
// one of many simultaneous first ADDs create a missing network.
//   WINCNI_DATA_DIR, when set;
//   Windows: %ProgramData%\wincni (C:\ProgramData\wincni without ProgramData),
//     the machine-wide place for a service's data, writable by SYSTEM, which
//     the runtime runs plugins as;
//   Linux, where the HNS emulator is the host: $WINCNI_EMULATOR_DIR/wincni
//     when that is set (the lock guards that emulated host, so it lives with
//     it), else /var/lib/wincni (next to the emulator's default state).

#include <string>

#include "wincni/cni/env.hpp"

namespace wincni::endpoint {

std::string plugin_data_dir(const cni::Environment& env);

}  // namespace wincni::endpoint
