#!/usr/bin/env bash
# Builds a release of the Windows binaries and lays it out ready to zip:
#   dist/wincni-<version>-windows-amd64/
#     bin/        flannel.exe win-bridge.exe win-overlay.exe host-local.exe hnsctl.exe
#                 (optimised, stripped, static: no DLL beyond Windows' own)
#     conf-examples/
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
if [ ! -f build/release/build.ninja ]; then
  meson setup build/release --werror --cross-file cross/mingw-w64-x86_64.ini \
    --buildtype=release -Dstrip=true >/dev/null
fi
meson compile -C build/release flannel:executable win-bridge:executable win-overlay:executable \
  host-local:executable hnsctl:executable
python3 scripts/release/layout.py --build build/release --source . --out "$out"
