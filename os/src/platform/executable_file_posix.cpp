#include <unistd.h>

#include "wincni/os/executable_file.hpp"

namespace wincni::os {

bool may_execute(const std::string& path) { return ::access(path.c_str(), X_OK) == 0; }

}  // namespace wincni::os
