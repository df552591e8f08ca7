#!/usr/bin/env bash
# The main job: a pod's network set up and torn down through the real plugin
# binaries, on the embedded HNS emulator, in a scratch folder. Installs what is
# missing and builds the binaries it needs (native configuration) first.
#
#   scripts/main-job.sh            flannel -> win-bridge on a flannel host-gw node
#   scripts/main-job.sh vxlan      flannel -> win-overlay on a flannel vxlan node (VNI 4096)
#   scripts/main-job.sh bridge     win-bridge alone (overlay: win-overlay alone)
set -euo pipefail
cd "$(dirname "$0")/.."
# The native build is all the main job needs: no Wine, mingw-w64 or Go.
scripts/setup.sh native
build() {
  # The settings scripts/build.sh gives build/linux, which the two share.
  [ -f build/linux/build.ninja ] || meson setup build/linux --werror -Doptimization=1
  # ":executable" because hnsctl also names the library its commands live in.
  meson compile -C build/linux hnsctl:executable flannel:executable win-bridge:executable \
    win-overlay:executable host-local:executable
}
# Progress in tenths, from ninja's "[n/m]" lines: a first build takes
# minutes, and the full output is in the log.
progress() {
  awk '/^\[[0-9]+\/[0-9]+\]/ {
    split(substr($1, 2, length($1) - 2), step, "/")
    percent = int(step[1] * 100 / step[2])
    if (percent >= mark) { printf "  %d%% (%d of %d steps)\n", percent, step[1], step[2]; fflush(); mark = percent - percent % 10 + 10 }
  }'
}
mkdir -p build
echo "Building flannel, win-bridge, win-overlay, host-local and hnsctl in build/linux (log: build/main-job-build.log)"
if ! build 2>&1 | tee build/main-job-build.log | progress; then
  tail -n 40 build/main-job-build.log >&2
  exit 1
fi
echo
exec scripts/demo/pod-lifecycle.sh build/linux "$@"
