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
. scripts/release/build-options.sh
if [ -f build/release/build.ninja ]; then
  meson configure build/release "${release_options[@]}"
else
  meson setup build/release --werror --cross-file cross/mingw-w64-x86_64.ini "${release_options[@]}" >/dev/null
fi
meson compile -C build/release flannel:executable win-bridge:executable win-overlay:executable \
  host-local:executable hnsctl:executable wincni-install:executable
python3 scripts/release/layout.py --build build/release --source . --out "$out" --strip x86_64-w64-mingw32-strip
