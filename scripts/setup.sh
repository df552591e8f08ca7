#!/usr/bin/env bash
# Installs what wincni needs from Debian's packages. Idempotent and silent when
# everything is already present; used by the README's commands, .ci/run and
# developers alike.
#   scripts/setup.sh          the builds and tests but the sanitized ones
#                             (scripts/test.sh, build.sh, release.sh)
#   scripts/setup.sh native   the native build only (scripts/main-job.sh)
#   scripts/setup.sh sanitize the native build with clang, its sanitizers
#                             and libFuzzer (scripts/sanitize.sh, fuzz.sh)
#   scripts/setup.sh bench    the native build, the reference host-local and
#                             gnuplot (scripts/bench.sh)
set -euo pipefail

# native: what the native build (and so the main job) needs; all: the
# Windows cross build, Wine, Go and the reference plugins for the tests too.
profile=${1:-all}
packages=(
  meson ninja-build pkg-config cmake g++
  nlohmann-json3-dev libfmt-dev doctest-dev
  python3
)
case "$profile" in
  native) ;;
  bench) packages+=(containernetworking-plugins gnuplot-nox) ;;
  # llvm provides llvm-symbolizer, which names the frames of a report.
  sanitize) packages+=(clang libclang-rt-14-dev llvm) ;;
  all)
    packages+=(
      g++-mingw-w64-x86-64-posix gcc-mingw-w64-x86-64-posix mingw-w64-tools
      wine64 wine dpkg-dev
      containernetworking-plugins golang-go golang-github-appc-cni-dev
      golang-github-containerd-go-cni-dev
      python3-yaml
    )
    ;;
  *) echo "usage: scripts/setup.sh [native|bench|sanitize|all]" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
echo "setup: installing ${missing[*]}" >&2
"${sudo_cmd[@]}" apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >&2
