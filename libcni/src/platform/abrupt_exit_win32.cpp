#include <windows.h>

#include <cstdlib>

#include "wincni/cni/abrupt_exit.hpp"

namespace wincni::cni {

void exit_abruptly(int exit_code) {
  TerminateProcess(GetCurrentProcess(), static_cast<UINT>(exit_code));
  std::abort();  // TerminateProcess on oneself does not return; should it, still end
}

}  // namespace wincni::cni
