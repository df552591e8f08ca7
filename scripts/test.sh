#!/usr/bin/env bash
# Runs every test: installs what is missing, builds the native and Windows
# configurations, then the native suites, the Windows suites under Wine, and
# the sanitized pass, which builds build/sanitized
# (scripts/sanitize.sh --ci: the unit, engine, e2e and fuzz suites under
# ASan and UBSan, and each fuzz target briefly).
#   WINCNI_SKIP_WINDOWS=1     leaves out the Windows build and its suites
#   WINCNI_SKIP_SANITIZERS=1  leaves out the sanitized pass
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
meson test -C build/linux --print-errorlogs --num-processes 2
if [ "${WINCNI_SKIP_WINDOWS:-0}" != 1 ]; then
  . scripts/wine-env.sh
  wine_server_persistent
  trap wine_server_stop EXIT
  meson test -C build/windows --print-errorlogs --num-processes 2
  wine_server_stop
  trap - EXIT
fi
if [ "${WINCNI_SKIP_SANITIZERS:-0}" != 1 ]; then
  scripts/sanitize.sh --ci
fi
