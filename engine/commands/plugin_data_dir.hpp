#pragma once
// Where the engine keeps what its processes share: the lock that lets only
// one of many simultaneous first ADDs create a missing network.
// WINCNI_DATA_DIR when set, else the host's default (hns::default_data_dir:
// %ProgramData%\wincni on Windows, beside the emulated host on Linux).

#include <string>

#include "wincni/cni/env.hpp"

namespace wincni::engine {

std::string plugin_data_dir(const cni::Environment& env);

}  // namespace wincni::engine
