#!/usr/bin/env bash
# Builds a static libuv for the mingw-w64 cross build from Debian's libuv1
# source package. Everything lives under <cache-dir> (in the build tree): the
# downloaded source package, the unpacked tree, the CMake build and the result
# in <cache-dir>/prefix/{include,lib/libuv.a}. Idempotent: with a result in
# place it does nothing, and an already downloaded package is never fetched
# again.
#
# usage: build-libuv.sh <cache-dir> <mingw-c-compiler>
set -euo pipefail

cache=$(mkdir -p "$1" && cd "$1" && pwd)
cc=$2
prefix=$cache/prefix
log=$cache/build.log
tag=libuv-mingw
. "$(dirname "$0")/../debian-source.sh"

[ -f "$prefix/lib/libuv.a" ] && [ -f "$prefix/include/uv.h" ] && exit 0

start_log
started=$(date +%s)

build() {
  echo "libuv-mingw: building libuv with $cc" >&2
  local ar="${cc%gcc*}ar"  # x86_64-w64-mingw32-gcc-posix -> x86_64-w64-mingw32-ar
  cmake -S "$cache/src" -B "$cache/build" -G Ninja \
    -DCMAKE_SYSTEM_NAME=Windows -DCMAKE_SYSTEM_PROCESSOR=x86_64 \
    -DCMAKE_C_COMPILER="$cc" -DCMAKE_AR="$(command -v "$ar")" \
    -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
    -DLIBUV_BUILD_TESTS=OFF -DLIBUV_BUILD_BENCH=OFF -DBUILD_SHARED_LIBS=OFF >>"$log" 2>&1
  cmake --build "$cache/build" --target uv_a -j 2 >>"$log" 2>&1
}

install_result() {
  stage_prefix
  local lib
  lib=$(find "$cache/build" -maxdepth 1 -name 'libuv*.a' | head -n 1)
  [ -n "$lib" ] || { echo "libuv-mingw: the build produced no static library" >>"$log"; return 1; }
  cp "$lib" "$staged/lib/libuv.a"
  publish_prefix
}

fetch_debian_source libuv1 CMakeLists.txt
build
install_result
echo "libuv-mingw: $(basename "$(newest_dsc libuv1)" .dsc) ready in $(($(date +%s) - started)) s" >&2
