#!/usr/bin/env bash
# Every native test suite under AddressSanitizer and UndefinedBehaviorSanitizer
# (build/sanitized, scripts/sanitized-build.sh), then each fuzz target for a
# few seconds beyond its seed corpus (docs/fuzzing.md). Extra arguments go to
# meson test, e.g. `scripts/sanitize.sh engine win-bridge-e2e`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh sanitize
. scripts/sanitized-build.sh
sanitized_configure
meson compile -C "$sanitized_build_dir"
# A sanitizer's report ends the process with an error, so a test fails on it.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
meson test -C "$sanitized_build_dir" --print-errorlogs --num-processes 2 "$@"
[ $# -gt 0 ] || scripts/fuzz.sh --seconds 5
