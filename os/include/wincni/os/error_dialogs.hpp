#pragma once
// A plugin that crashes, or cannot load a DLL, ends at once with its error
// status: no Windows Error Reporting dialog or dump collection holds it
// past the runtime's timeout, and no "insert a disk" box waits for a
// click nobody gives. libuv set this mode when it was initialised, which
// every plugin once did at its first read of stdin; plugin_main sets it
// itself, first thing. Nothing on POSIX.

namespace wincni::os {

void fail_without_error_dialogs();

}  // namespace wincni::os
