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
here=$(cd "$(dirname "$0")" && pwd)
prefix=$cache/prefix
log=$cache/build.log

[ -f "$prefix/lib/libuv.a" ] && [ -f "$prefix/include/uv.h" ] && exit 0

: >"$log"
trap 'status=$?; if [ $status -ne 0 ]; then echo "libuv-mingw: failed, last lines of $log:" >&2; tail -n 30 "$log" >&2; fi' EXIT
started=$(date +%s)

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

has_libuv_source() {
  # grep reads everything: with -q it could stop early and, under pipefail,
  # turn apt-cache's SIGPIPE into a false "no".
  apt-cache showsrc libuv1 2>/dev/null | grep '^Package: libuv1$' >/dev/null
}

# apt-get source needs deb-src entries; they are derived from the machine's
# own sources so that the archive's address never appears in the repository.
ensure_deb_src() {
  has_libuv_source && return 0
  local ours=/etc/apt/sources.list.d/wincni-deb-src.sources
  echo "libuv-mingw: adding deb-src entries ($ours) and updating apt" >&2
  "$here/derive-deb-src.py" | as_root tee "$ours" >>"$log"
  as_root apt-get update -qq >>"$log" 2>&1
  has_libuv_source || { echo "libuv-mingw: apt still knows no source for libuv1" >&2; return 1; }
}

newest_dsc() {
  [ -d "$cache/download" ] || return 0
  find "$cache/download" -maxdepth 1 -name 'libuv1_*.dsc' | sort -V | tail -n 1
}

download() {
  [ -n "$(newest_dsc)" ] && return 0
  ensure_deb_src
  echo "libuv-mingw: downloading the libuv1 source package" >&2
  mkdir -p "$cache/download"
  (cd "$cache/download" && apt-get source --download-only libuv1) >>"$log" 2>&1
}

unpack() {
  [ -f "$cache/src/CMakeLists.txt" ] && return 0
  rm -rf "$cache/src" "$cache/unpack.tmp"
  mkdir -p "$cache/unpack.tmp"
  # dpkg-source applies Debian's patches (security fixes included); it also
  # leaves a copy of the upstream tarball beside the tree, hence the tmp dir.
  dpkg-source -x "$(newest_dsc)" "$cache/unpack.tmp/src" >>"$log" 2>&1
  mv "$cache/unpack.tmp/src" "$cache/src"
  rm -rf "$cache/unpack.tmp"
}

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
  local staged=$cache/prefix.tmp
  rm -rf "$staged"
  mkdir -p "$staged/lib" "$staged/include"
  cp -R "$cache/src/include/." "$staged/include/"
  local lib
  lib=$(find "$cache/build" -maxdepth 1 -name 'libuv*.a' | head -n 1)
  [ -n "$lib" ] || { echo "libuv-mingw: the build produced no static library" >>"$log"; return 1; }
  cp "$lib" "$staged/lib/libuv.a"
  rm -rf "$prefix"
  mv "$staged" "$prefix"
}

download
unpack
build
install_result
echo "libuv-mingw: $(basename "$(newest_dsc)" .dsc) ready in $(($(date +%s) - started)) s" >&2
