#!/usr/bin/env bash
# The benchmark (docs/benchmarks.md): builds the native release binaries in
# build/bench, runs every plugin on the HNS emulator, and prints the tables;
# build/bench/bench.json and bench.png hold the same results. It never fails
# on a missed target: it prints MET or MISSED beside each.
#   scripts/bench.sh                  everything, 200 runs per figure (some minutes)
#   scripts/bench.sh --runs 20        a quick look
#   scripts/bench.sh --windows ...    also the sizes of the Windows release's .exe
#                                     files (scripts/release.sh, into build/bench/dist)
# Other options go to tests/bench/bench.py (--help lists them).
set -euo pipefail
cd "$(dirname "$0")/.."

windows=0
if [ "${1:-}" = --windows ]; then windows=1; shift; fi

scripts/setup.sh bench
# The shipped release's settings (scripts/release.sh): -O2, as -O3 makes
# GCC 12 warn falsely in fmt, and warnings are errors.
# Reconfigured each time: naming a target meson has not seen yet fails.
reconfigure=()
[ -f build/bench/build.ninja ] && reconfigure=(--reconfigure)
meson setup "${reconfigure[@]}" build/bench --werror -Doptimization=2 -Ddebug=false -Db_ndebug=true >/dev/null
meson compile -C build/bench flannel:executable win-bridge:executable win-overlay:executable \
  host-local:executable hnsctl:executable spawn-floor:executable peak-rss:executable \
  populate-node:executable >/dev/null

release=()
if [ "$windows" = 1 ]; then
  scripts/release.sh build/bench/dist >/dev/null
  release=(--windows-release build/bench/dist)
fi
exec python3 tests/bench/bench.py --build build/bench "${release[@]}" "$@"
