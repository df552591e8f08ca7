#include <unistd.h>

#include "wincni/os/process_id.hpp"

namespace wincni::os {

unsigned long current_process_id() { return static_cast<unsigned long>(getpid()); }

}  // namespace wincni::os
