#include <unistd.h>

#include "wincni/os/abrupt_exit.hpp"

namespace wincni::os {

void exit_abruptly(int exit_code) { ::_exit(exit_code); }

}  // namespace wincni::os
