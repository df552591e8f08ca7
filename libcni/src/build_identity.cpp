#include "wincni/cni/build_identity.hpp"

#include <fmt/format.h>

#ifndef WINCNI_VERSION
#define WINCNI_VERSION "unknown"
#endif

namespace wincni::cni {

std::string_view suite_version() { return WINCNI_VERSION; }

std::string version_line(std::string_view program) {
  return fmt::format("{} {}{}, commit {})", program, kBuildMarker, suite_version(), build_commit());
}

bool is_wincni_build(std::string_view binary_content) {
  return binary_content.find(kBuildMarker) != std::string_view::npos;
}

}  // namespace wincni::cni
