#include "known_broken_builds.hpp"

namespace wincni::hnsctl {

namespace {

struct BrokenRange {
  unsigned major, minor, build;
  unsigned first_revision;  // the first update that broke it
  unsigned fixed_revision;  // the first that mended it (0: none yet)
  BuildProblem problem;
};

constexpr BrokenRange kBrokenRanges[] = {
    // Server 2022: July 2024's KB5040437 (20348.2582) broke container
    // networking on Kubernetes; October 2024's KB5044281 (20348.2762) lists
    // the fix among its known issues resolved.
    {10,
     0,
     20348,
     2582,
     2762,
     {"pods cannot reach other pods or anything beyond the node (\"General failure\") after Windows Server 2022's "
      "July 2024 update KB5040437; install October 2024's KB5044281 (20348.2762) or later",
      "microsoft/Windows-Containers#516, projectcalico/calico#9019"}},
};

}  // namespace

std::vector<BuildProblem> known_problems(const os::WindowsBuild& build) {
  std::vector<BuildProblem> found;
  for (const BrokenRange& range : kBrokenRanges) {
    if (build.major != range.major || build.minor != range.minor || build.build != range.build) continue;
    if (build.revision < range.first_revision) continue;
    if (range.fixed_revision != 0 && build.revision >= range.fixed_revision) continue;
    found.push_back(range.problem);
  }
  return found;
}

}  // namespace wincni::hnsctl
