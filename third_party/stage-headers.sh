#!/bin/sh
# Links the Debian header-only libraries into one folder for the mingw build.
set -eu
dest="$1/include"
mkdir -p "$dest"
for h in nlohmann doctest; do
  [ -e "/usr/include/$h" ] || { echo "stage-headers: /usr/include/$h missing (run scripts/setup.sh)" >&2; exit 1; }
  ln -sfn "/usr/include/$h" "$dest/$h"
done
