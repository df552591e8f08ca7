#pragma once
// Windows updates known to break pod networking, with their public sources:
// what `hnsctl caps` says of the host's build before anyone looks at HNS.

#include <vector>

#include "wincni/os/windows_build.hpp"

namespace wincni::hnsctl {

struct BuildProblem {
  const char* what;    // what breaks, and which update mends it
  const char* source;  // the public report
};

std::vector<BuildProblem> known_problems(const os::WindowsBuild& build);

}  // namespace wincni::hnsctl
