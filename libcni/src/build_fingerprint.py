#!/usr/bin/env python3
"""Prints the build's fingerprint: 32 hex digits of a SHA-256 over the build's
settings (the arguments after the source folder: the OS, the compiler and
its version, the build type, optimisation, assertions, sanitizers) and the
path and contents of every file in the folders whose code goes into a
plugin. Two binaries with the same fingerprint were built from the same code
in the same way, whatever git says (a dirty tree, a tarball), so one may run
the other's code in process (wincni/cni/plugin_identity.hpp)."""

import hashlib
import os
import sys

# What a plugin's behaviour depends on; tests, docs and scripts do not.
FOLDERS = ["os", "libcni", "ipam", "hnsclient", "hns-emulator", "engine", "plugins", "third_party"]
FILES = ["meson.build", "meson_options.txt"]


def main() -> None:
    root = sys.argv[1]
    digest = hashlib.sha256()
    for setting in sys.argv[2:]:
        digest.update(f"{setting}\0".encode())
    paths = [f for f in FILES if os.path.isfile(os.path.join(root, f))]
    for folder in FOLDERS:
        for parent, dirs, names in os.walk(os.path.join(root, folder)):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            paths += [os.path.relpath(os.path.join(parent, n), root) for n in names if not n.startswith(".")]
    for path in sorted(paths):
        with open(os.path.join(root, path), "rb") as handle:
            content = handle.read()
        digest.update(f"{path.replace(os.sep, '/')}\0{len(content)}\0".encode())
        digest.update(content)
    print(digest.hexdigest()[:32])


if __name__ == "__main__":
    main()
