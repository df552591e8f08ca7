#include "wincni/cni/error_dialogs.hpp"

namespace wincni::cni {

// A crash on POSIX is a signal and an exit status; nothing waits for anyone.
void fail_without_error_dialogs() {}

}  // namespace wincni::cni
