#!/usr/bin/env bash
# Builds a release of the Windows binaries and lays it out ready to zip:
#   dist/wincni-<version>-windows-amd64/
#     bin/        flannel.exe win-bridge.exe win-overlay.exe host-local.exe hnsctl.exe
#                 wincni-install.exe (copies the others into the runtime's bin folder)
#                 (optimised, stripped, static: no DLL beyond Windows' own)
#     conf-examples/
#     kubernetes/ the HostProcess manifests and their image folder (deploy/kubernetes)
#     INSTALL.md  both node layouts and the containerd keys that point at them
#     VERSION     what every binary's --version says
#     SHA256SUMS  of everything above
# usage: scripts/release.sh [OUT_DIR]   (default: dist)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-dist}
scripts/setup.sh
. scripts/wine-env.sh
wine_prefix_ready
# -Os: the .exe files are 15% smaller than at -O2 (host-local.exe 1.67 ->
# 1.50 MB, win-bridge.exe 2.62 -> 2.21 MB) and no slower: a plugin's time is
# its start, its system calls and HNS (docs/benchmarks.md, section 6). Not
# buildtype=release's -O3: with GCC 12 it turns fmt 9's fill specifier into
# a false stringop-overflow warning, and warnings are errors.
# Each function and object in a section of its own, and the sections nothing
# reaches left out: a few KB per .exe (host-local.exe 1.51 -> 1.50 MB).
# File by file, not the unity builds of the tests: a unit's static
# initialisers are one function that keeps every object its eight files
# define, and a unity release made wincni-install.exe 1.36 -> 2.16 MB.
# Set each time, so that a build folder made with other settings takes these.
sections="-ffunction-sections -fdata-sections"
options=(-Doptimization=s -Ddebug=false -Db_ndebug=true -Dc_args="$sections" -Dcpp_args="$sections"
  -Dcpp_link_args=-Wl,--gc-sections -Dunity=off)
if [ -f build/release/build.ninja ]; then
  meson configure build/release "${options[@]}"
else
  meson setup build/release --werror --cross-file cross/mingw-w64-x86_64.ini "${options[@]}" >/dev/null
fi
meson compile -C build/release flannel:executable win-bridge:executable win-overlay:executable \
  host-local:executable hnsctl:executable wincni-install:executable
python3 scripts/release/layout.py --build build/release --source . --out "$out" --strip x86_64-w64-mingw32-strip
