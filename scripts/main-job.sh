#!/usr/bin/env bash
# The main job: a pod's network set up and torn down through the real plugin
# binaries, on the embedded HNS emulator, in a scratch folder. Installs what is
# missing and builds the native configuration first.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build
if ! WINCNI_SKIP_WINDOWS=1 scripts/build.sh >build/main-job-build.log 2>&1; then
  tail -n 40 build/main-job-build.log >&2
  exit 1
fi
exec scripts/demo/pod-lifecycle.sh build/linux
