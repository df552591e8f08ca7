#!/usr/bin/env bash
# Builds fmt's compiled part (src/format.cc) as a static library for the
# mingw-w64 cross build from Debian's fmtlib source package, into
# <cache-dir>/prefix/{include,lib/libfmt.a}. Header-only, every translation
# unit carried its own inlined copy of fmt's formatting code: at -O2 that was
# 0.97 MB of each plugin's .exe. Idempotent, as build-libuv.sh is.
#
# usage: build-fmt.sh <cache-dir> <mingw-c++-compiler> [compiler-option...]
#   the options (fmt's defines) are the ones the build compiles fmt's headers
#   with; a cache built with other options (or optimisation) is built again.
set -euo pipefail

cache=$(mkdir -p "$1" && cd "$1" && pwd)
cxx=$2
shift 2
# -Os, as the release: fmt's compiled part is 97 KB at -O2 and 60 KB at -Os
# in each .exe (hnsctl.exe 1726464 -> 1689088 bytes), and formatting is no
# measurable part of a plugin's time. The same whatever the build's
# optimisation: a library built once per build folder.
options=(-Os "$@")
prefix=$cache/prefix
log=$cache/build.log
tag=fmt-mingw
. "$(dirname "$0")/../debian-source.sh"

[ -f "$prefix/lib/libfmt.a" ] && [ -f "$prefix/include/fmt/format.h" ] &&
  [ "$(cat "$prefix/options" 2>/dev/null)" = "${options[*]}" ] && exit 0

start_log
fetch_debian_source fmtlib src/format.cc
echo "$tag: building fmt with $cxx" >&2
stage_prefix
"$cxx" -std=c++20 "${options[@]}" -I "$staged/include" -c "$cache/src/src/format.cc" -o "$cache/format.o" \
  >>"$log" 2>&1
ar=$(command -v "${cxx%g++*}ar") || { echo "$tag: no ar beside $cxx" >&2; exit 1; }
"$ar" rcs "$staged/lib/libfmt.a" "$cache/format.o" >>"$log" 2>&1
echo "${options[*]}" >"$staged/options"
publish_prefix
echo "$tag: $(basename "$(newest_dsc fmtlib)" .dsc) ready" >&2
