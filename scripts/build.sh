#!/usr/bin/env bash
# Configures (once) and builds both configurations:
#   build/linux    native, g++, the HNS emulator as the embedded backend
#   build/windows  mingw-w64 cross build: static .exe files and the emulator DLLs
# Set WINCNI_SKIP_WINDOWS=1 to build only the native configuration.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

configure() {  # dir, extra args...
  local dir=$1; shift
  if [ ! -f "$dir/build.ninja" ]; then
    meson setup "$dir" --werror "$@" >/dev/null
  fi
}

# -O1, as the Windows build below: the tests' time is process starts and
# HNS calls, the same at -O1 as at -O2 (247 s of tests either way), while
# the code generation is most of a cold CI run's compile time: 14 -> 7 CPU
# minutes for build/linux. scripts/bench.sh builds what it measures
# with the release's options (scripts/release/build-options.sh).
configure build/linux -Doptimization=1
meson compile -C build/linux
if [ "${WINCNI_SKIP_WINDOWS:-0}" != 1 ]; then
  # Configuring runs a test program through the cross file's exe_wrapper
  # (wine), so the prefix must exist first; the first configure also builds
  # fmt from Debian's source package (third_party/fmt-mingw).
  . scripts/wine-env.sh
  wine_prefix_ready
  # -O1 for the same reason; a release build sets -Doptimization=s.
  configure build/windows --cross-file cross/mingw-w64-x86_64.ini -Doptimization=1
  meson compile -C build/windows
fi
