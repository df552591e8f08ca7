#pragma once
// This process's ID, for the log's lines.

namespace wincni::cni::platform {

unsigned long current_process_id();

}  // namespace wincni::cni::platform
