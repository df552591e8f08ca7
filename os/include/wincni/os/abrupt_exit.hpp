#pragma once
// Ending this process at once, as a crash would: no destructors, no atexit
// handlers, no flushing, and on Windows no DLL detach (TerminateProcess).
// For the HNS emulator's injected crashes, which must leave what a real
// crash leaves.

namespace wincni::os {

[[noreturn]] void exit_abruptly(int exit_code);

}  // namespace wincni::os
