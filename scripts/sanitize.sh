#!/usr/bin/env bash
# The native test suites under AddressSanitizer and UndefinedBehaviorSanitizer
# (build/sanitized, scripts/sanitized-build.sh), then each fuzz target for a
# few seconds beyond its seed corpus (docs/fuzzing.md).
#   scripts/sanitize.sh            every suite whole, then the fuzz targets 5 s each
#   scripts/sanitize.sh --ci       what scripts/test.sh runs: the unit and fuzz
#                                  suites, the engine and e2e suites lean, then
#                                  the fuzz targets 5 s each
#   scripts/sanitize.sh SUITE...   those suites only (meson test's arguments),
#                                  e.g. `scripts/sanitize.sh engine win-bridge-e2e`
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --ci ] && [ $# -gt 1 ]; then
  echo "sanitize.sh: --ci takes no other arguments" >&2
  exit 2
fi
scripts/setup.sh sanitize
. scripts/sanitized-build.sh
sanitized_configure
meson compile -C "$sanitized_build_dir"
# A sanitizer's report ends the process with an error, so a test fails on it.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
run() { meson test -C "$sanitized_build_dir" --print-errorlogs --num-processes 2 "$@"; }

if [ "${1:-}" = --ci ]; then
  # The unit and fuzz suites are one process each: leaks are checked there.
  # The engine and e2e suites start thousands of plugin processes, and in
  # each LeakSanitizer's scan at exit and the allocation stacks ASan keeps
  # were a third of the cost (docs/fuzzing.md); the whole run keeps both.
  run --suite unit --suite fuzz
  ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0:malloc_context_size=0 \
    run --suite engine --suite e2e --suite e2e-lean --no-suite e2e-full --no-suite e2e-variant
  exec scripts/fuzz.sh --seconds 5
fi
if [ $# -gt 0 ]; then
  run "$@"
else
  run --no-suite e2e-lean
  scripts/fuzz.sh --seconds 5
fi
