#pragma once
// Where the engine keeps what its processes share: the lock that lets only
// one of many simultaneous first ADDs create a missing network.
// WINCNI_DATA_DIR when set, else the host's default (hns::default_data_dir:
// %ProgramData%\wincni on Windows, beside the emulated host on Linux).

#include <chrono>
#include <string>

#include "wincni/cni/env.hpp"

namespace wincni::engine {

std::string plugin_data_dir(const cni::Environment& env);

// How long an ADD waits for another's network creation: HNS makes a network
// in seconds; a holder past this hangs, or squats the lock file (in a folder
// any user could create first, %ProgramData%\\wincni on a node). Two
// minutes; WINCNI_NETWORK_LOCK_TIMEOUT_MS sets it.
std::chrono::milliseconds network_lock_limit(const cni::Environment& env);

}  // namespace wincni::engine
