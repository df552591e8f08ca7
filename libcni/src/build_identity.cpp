#include "wincni/cni/build_identity.hpp"

#include <fmt/format.h>

#ifndef WINCNI_VERSION
#define WINCNI_VERSION "unknown"
#endif

namespace wincni::cni {

std::string_view suite_version() { return WINCNI_VERSION; }

std::string version_line(std::string_view program) {
  return fmt::format("{} (wincni {}, commit {})", program, suite_version(), build_commit());
}

}  // namespace wincni::cni
