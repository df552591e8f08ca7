#include <unistd.h>

#include "wincni/cni/abrupt_exit.hpp"

namespace wincni::cni {

void exit_abruptly(int exit_code) { ::_exit(exit_code); }

}  // namespace wincni::cni
