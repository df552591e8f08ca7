#!/usr/bin/env bash
# Runs every test: installs what is missing, builds both configurations, then
# the native suites and the Windows suites under Wine.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
meson test -C build/linux --print-errorlogs --num-processes 2
if [ "${WINCNI_SKIP_WINDOWS:-0}" != 1 ]; then
  . scripts/wine-env.sh
  wine_server_persistent
  trap wine_server_stop EXIT
  meson test -C build/windows --print-errorlogs --num-processes 2
fi
