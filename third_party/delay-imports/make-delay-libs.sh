#!/usr/bin/env bash
# Makes a delay-load import library (lib<name>-delay.a) for each .def file:
# the DLL it names is loaded when one of its functions is first called, not
# when the process starts. Idempotent: a library newer than its .def stays
# (run at configure time: a changed .def takes effect at the next configure).
#
# usage: make-delay-libs.sh <out-dir> <mingw-c-compiler> <file.def>...
set -euo pipefail
out=$(mkdir -p "$1" && cd "$1" && pwd)
dlltool="${2%gcc*}dlltool"  # x86_64-w64-mingw32-gcc-posix -> x86_64-w64-mingw32-dlltool
shift 2
for def in "$@"; do
  name=$(basename "$def" .def)
  lib=$out/lib$name-delay.a
  [ "$lib" -nt "$def" ] && continue
  dll=$(awk '$1 == "LIBRARY" { print $2; exit }' "$def")
  # Through a temporary name: a library left half-written by a failure would
  # be newer than its .def, and kept.
  "$dlltool" --input-def "$def" --dllname "$dll" --output-delaylib "$lib.tmp"
  mv "$lib.tmp" "$lib"
done
