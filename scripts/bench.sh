#!/usr/bin/env bash
# The benchmark (docs/benchmarks.md): builds the native release binaries in
# build/bench, runs every plugin on the HNS emulator, and prints the tables;
# build/bench/bench.json and bench.png hold the same results. It never fails
# on a missed target: it prints MET or MISSED beside each.
#   scripts/bench.sh                  everything, 200 runs per figure (some minutes)
#   scripts/bench.sh --runs 20        a quick look
#   scripts/bench.sh --windows ...    also the sizes of the Windows release's .exe
#                                     files (scripts/release.sh, into build/bench/dist)
#   scripts/bench.sh --wine ...       --windows, and the latency table again for
#                                     those .exe files under Wine (--wine-runs, 20)
# Other options go to tests/bench/bench.py (--help lists them).
set -euo pipefail
cd "$(dirname "$0")/.."

windows=0 wine=0
case "${1:-}" in
  --windows) windows=1; shift ;;
  --wine) windows=1; wine=1; shift ;;
esac

scripts/setup.sh bench
# The shipped release's settings (scripts/release/build-options.sh), set
# each time with `meson configure` (`meson setup --reconfigure` keeps an
# existing folder's compiler arguments), then `--reconfigure` so that meson
# reads meson.build again: naming a target it has not seen yet fails.
. scripts/release/build-options.sh
if [ -f build/bench/build.ninja ]; then
  meson configure build/bench "${release_options[@]}"
  meson setup --reconfigure build/bench >/dev/null
else
  meson setup build/bench --werror "${release_options[@]}" >/dev/null
fi
meson compile -C build/bench flannel:executable win-bridge:executable win-overlay:executable \
  host-local:executable hnsctl:executable spawn-floor:executable peak-rss:executable \
  populate-node:executable >/dev/null

release=()
if [ "$windows" = 1 ]; then
  scripts/release.sh build/bench/dist >/dev/null
  release=(--windows-release build/bench/dist)
fi
if [ "$wine" = 1 ]; then
  # The emulator DLLs and spawn-floor.exe come from the Windows test build.
  scripts/build.sh >/dev/null
  . scripts/wine-env.sh
  wine_server_persistent
  trap wine_server_stop EXIT
  release+=(--wine-release build/bench/dist --wine-build build/windows)
fi
python3 tests/bench/bench.py --build build/bench "${release[@]}" "$@"
