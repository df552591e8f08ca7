#include <windows.h>

#include "../process_id.hpp"

namespace wincni::cni::platform {

unsigned long current_process_id() { return GetCurrentProcessId(); }

}  // namespace wincni::cni::platform
