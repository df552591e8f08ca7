#include <unistd.h>

#include "../process_id.hpp"

namespace wincni::cni::platform {

unsigned long current_process_id() { return static_cast<unsigned long>(getpid()); }

}  // namespace wincni::cni::platform
