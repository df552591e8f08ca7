#include "wincni/os/windows_build.hpp"

namespace wincni::os {

std::optional<WindowsBuild> windows_build() { return std::nullopt; }

}  // namespace wincni::os
