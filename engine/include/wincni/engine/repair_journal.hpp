#pragma once
// Where the plugins record every repair that deletes or moves something
// (cni::Logger::repair: an endpoint removed, an address given back to its
// pod, a GC's collection), whether or not a log file is set:
// repairs.log in the plugins' data folder (WINCNI_DATA_DIR, else
// %ProgramData%\wincni on a node). hnsctl doctor shows it. Size-bounded: at
// 256 KiB it moves to repairs.log.1.

#include <string>

#include "wincni/cni/env.hpp"

namespace wincni::engine {

std::string repair_journal_path(const cni::Environment& env);

}  // namespace wincni::engine
