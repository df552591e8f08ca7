# Sourced by the scripts that cross-build a library for the Windows build
# from Debian's source package (libuv-mingw, fmt-mingw): their shared steps —
# the build log, fetching and unpacking the package once into the caller's
# cache folder, and putting the result in place. The caller sets $cache,
# $log (where apt's, dpkg's and the compiler's output goes) and $tag (what
# messages start with).

debian_source_scripts=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# Starts $log afresh; a failing exit then shows its last lines.
start_log() {
  : >"$log"
  trap 'status=$?; [ $status -eq 0 ] || { echo "$tag: failed, last lines of $log:" >&2; tail -n 30 "$log" >&2; }' EXIT
}

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

has_debian_source() {  # package
  # grep reads everything: with -q it could stop early and, under pipefail,
  # turn apt-cache's SIGPIPE into a false "no".
  apt-cache showsrc "$1" 2>/dev/null | grep "^Package: $1\$" >/dev/null
}

# apt-get source needs deb-src entries; they are derived from the machine's
# own sources so that the archive's address never appears in the repository.
ensure_deb_src() {  # package
  has_debian_source "$1" && return 0
  local ours=/etc/apt/sources.list.d/wincni-deb-src.sources
  echo "$tag: adding deb-src entries ($ours) and updating apt" >&2
  "$debian_source_scripts/derive-deb-src.py" | as_root tee "$ours" >>"$log"
  as_root apt-get update -qq >>"$log" 2>&1
  has_debian_source "$1" || { echo "$tag: apt still knows no source for $1" >&2; return 1; }
}

newest_dsc() {  # package
  [ -d "$cache/download" ] || return 0
  find "$cache/download" -maxdepth 1 -name "$1_*.dsc" | sort -V | tail -n 1
}

# The package's source tree in $cache/src, Debian's patches (security fixes
# included) applied. A downloaded package is never fetched again, and a tree
# holding `marker` is never unpacked again.
fetch_debian_source() {  # package, marker (a file of the unpacked tree)
  local package=$1 marker=$2
  if [ -z "$(newest_dsc "$package")" ]; then
    ensure_deb_src "$package"
    echo "$tag: downloading the $package source package" >&2
    mkdir -p "$cache/download"
    (cd "$cache/download" && apt-get source --download-only "$package") >>"$log" 2>&1
  fi
  [ -f "$cache/src/$marker" ] && return 0
  rm -rf "$cache/src" "$cache/unpack.tmp"
  mkdir -p "$cache/unpack.tmp"
  # dpkg-source leaves a copy of the upstream tarball beside the tree, hence
  # the tmp dir.
  dpkg-source -x "$(newest_dsc "$package")" "$cache/unpack.tmp/src" >>"$log" 2>&1
  mv "$cache/unpack.tmp/src" "$cache/src"
  rm -rf "$cache/unpack.tmp"
}

# The result is assembled in $staged ($cache/prefix.tmp: the package's
# include/ copied in, lib/ empty for the caller to fill), then replaces
# $cache/prefix in one move, so that a failed build never leaves a
# half-made prefix for the next configure to take as done.
stage_prefix() {
  staged=$cache/prefix.tmp
  rm -rf "$staged"
  mkdir -p "$staged/lib" "$staged/include"
  cp -R "$cache/src/include/." "$staged/include/"
}

publish_prefix() {
  rm -rf "$cache/prefix"
  mv "$staged" "$cache/prefix"
}
