#include <windows.h>

#include <cstdlib>

#include "wincni/os/abrupt_exit.hpp"

namespace wincni::os {

void exit_abruptly(int exit_code) {
  TerminateProcess(GetCurrentProcess(), static_cast<UINT>(exit_code));
  std::abort();  // TerminateProcess on oneself does not return; should it, still end
}

}  // namespace wincni::os
