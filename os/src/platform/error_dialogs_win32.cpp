#include <windows.h>

#include "wincni/os/error_dialogs.hpp"

namespace wincni::os {

void fail_without_error_dialogs() {
  SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOGPFAULTERRORBOX | SEM_NOOPENFILEERRORBOX);
}

}  // namespace wincni::os
