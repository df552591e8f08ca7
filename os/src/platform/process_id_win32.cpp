#include <windows.h>

#include "wincni/os/process_id.hpp"

namespace wincni::os {

unsigned long current_process_id() { return GetCurrentProcessId(); }

}  // namespace wincni::os
