#include "wincni/os/error_dialogs.hpp"

namespace wincni::os {

// A crash on POSIX is a signal and an exit status; nothing waits for anyone.
void fail_without_error_dialogs() {}

}  // namespace wincni::os
