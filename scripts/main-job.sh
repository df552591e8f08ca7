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
  [ -f build/linux/build.ninja ] || meson setup build/linux --werror
  # ":executable" because hnsctl also names the library its commands live in.
  meson compile -C build/linux hnsctl:executable flannel:executable win-bridge:executable \
    win-overlay:executable host-local:executable
}
mkdir -p build
if ! build >build/main-job-build.log 2>&1; then
  tail -n 40 build/main-job-build.log >&2
  exit 1
fi
exec scripts/demo/pod-lifecycle.sh build/linux "$@"
