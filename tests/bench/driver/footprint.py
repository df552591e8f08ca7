"""The size of each shipped binary: the native ones as built and stripped
(the bench build is static, like the Windows .exe files), the reference
host-local beside them, and the Windows release's .exe files when
scripts/release.sh has laid one out."""

import glob
import os
import subprocess
import tempfile


def _stripped_size(path):
    with tempfile.TemporaryDirectory() as scratch:
        stripped = os.path.join(scratch, "stripped")
        subprocess.run(["strip", "-o", stripped, path], check=True)
        return os.path.getsize(stripped)


def native_sizes(binaries):
    sizes = {name: {"bytes": os.path.getsize(path), "stripped_bytes": _stripped_size(path)}
             for name, path in binaries.plugins().items()}
    if binaries.reference_host_local:
        sizes["reference host-local"] = {"bytes": os.path.getsize(binaries.reference_host_local),
                                         "stripped_bytes": _stripped_size(binaries.reference_host_local)}
    return sizes


def windows_sizes(release_dir):
    """{name.exe: bytes} of a laid-out release (dist/wincni-*/bin), or {}."""
    if not release_dir:
        return {}
    return {os.path.basename(path): os.path.getsize(path)
            for path in sorted(glob.glob(os.path.join(release_dir, "wincni-*", "bin", "*.exe")))}
