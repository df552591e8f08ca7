#pragma once
// Whether this process may execute a file, as far as its permissions say:
// what starting it would check first. A delegate run in process
// (cni/carried_plugins.hpp) must not run where starting its file would have
// been refused.

#include <string>

namespace wincni::os {

// POSIX: access(X_OK). Windows: the file opens for execution (FILE_EXECUTE),
// which its ACL decides; application control policies (AppLocker, WDAC) are
// checked only when a process starts, and are not seen here.
bool may_execute(const std::string& path);

}  // namespace wincni::os
