#include "wincni/os/standard_descriptors.hpp"

namespace wincni::os {

// The C runtime keeps descriptors 0-2 for the standard handles even when the
// process has none, so a file opened later never takes their numbers.
void open_missing_standard_descriptors() {}

// Windows has no SIGPIPE: a write to a closed pipe fails.
void survive_broken_pipes() {}

// Windows has no SIGCHLD: a process handle keeps the exit code.
void keep_children_exit_statuses() {}

}  // namespace wincni::os
