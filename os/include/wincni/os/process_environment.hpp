#pragma once
// The one place that knows how each OS exposes a process's environment.

#include <string>
#include <vector>

namespace wincni::os {

// "NAME=value" entries in UTF-8, in the order the OS holds them.
std::vector<std::string> current_process_environment();

}  // namespace wincni::os
