#include <windows.h>

#include "wincni/cni/error_dialogs.hpp"

namespace wincni::cni {

void fail_without_error_dialogs() {
  SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOGPFAULTERRORBOX | SEM_NOOPENFILEERRORBOX);
}

}  // namespace wincni::cni
