#pragma once
// This process's ID, for the log's lines.

namespace wincni::os {

unsigned long current_process_id();

}  // namespace wincni::os
