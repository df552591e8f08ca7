#!/usr/bin/env bash
# The main job: a pod's network set up and torn down through the real plugin
# binaries, on the embedded HNS emulator, in a scratch folder. Installs what is
# missing and builds the three binaries it needs (native configuration) first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
build() {
  [ -f build/linux/build.ninja ] || meson setup build/linux --werror
  # ":executable" because hnsctl also names the library its commands live in.
  meson compile -C build/linux hnsctl:executable win-bridge:executable host-local:executable
}
mkdir -p build
if ! build >build/main-job-build.log 2>&1; then
  tail -n 40 build/main-job-build.log >&2
  exit 1
fi
exec scripts/demo/pod-lifecycle.sh build/linux
