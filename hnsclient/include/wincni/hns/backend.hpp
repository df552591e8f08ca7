#pragma once
// Where HNS is when nothing else is said, and where the plugins keep what
// their processes share on that host. One file pair picks both
// (hnsclient/src/backend_win32.cpp, hns-emulator/src/backend_emulator.cpp),
// so that nothing above it needs to know whether it runs on Windows or on
// the emulator.
//
// Windows: the real HNS (computenetwork.dll / vmcompute.dll from System32);
// plugin data in %ProgramData%\wincni (C:\ProgramData\wincni without
// ProgramData), the machine-wide place for a service's data, writable by
// SYSTEM, which the runtime runs plugins as.
//
// Linux: the HNS emulator, with its state in $WINCNI_EMULATOR_DIR (default
// /var/lib/wincni/hns-emulator) and the other WINCNI_EMULATOR_* settings from
// the environment (see emulator/emulator.hpp); plugin data beside that
// emulated host, in $WINCNI_EMULATOR_DIR/wincni, else /var/lib/wincni — a
// lock there guards that emulated host, so it lives with it.

#include <memory>
#include <string>

#include "wincni/cni/env.hpp"
#include "wincni/hns/seam.hpp"

namespace wincni::hns {

std::shared_ptr<HcnApi> default_backend();

// The plugins' data directory on this host, from the invocation's environment.
std::string default_data_dir(const cni::Environment& env);

}  // namespace wincni::hns
