"""A private mount namespace per worker, with /var/lib replaced by a scratch
dir: configs without a dataDir, and an empty WINCNI_EMULATOR_DIR, make the
plugins use their defaults under /var/lib, and those writes must land where
the leak checks see them, not on the machine running the tests."""

import os
import subprocess
import tempfile
from typing import List


# The plugins' defaults under /var/lib (host-local's dataDir, the emulator's
# and win-bridge's data dirs).
DEFAULT_DIRS = ("/var/lib/cni", "/var/lib/wincni")


def _candidates() -> List[List[str]]:
    private = ["--mount", "--propagation", "private"]
    if os.geteuid() == 0:
        return [["unshare", *private, "--"], ["unshare", "--user", "--map-root-user", *private, "--"]]
    return [["unshare", "--user", "--map-root-user", *private, "--"]]


def command_prefix() -> List[str]:
    """The command that starts a worker in a namespace where it may mount,
    or [] when this machine allows none (then default dirs are not
    redirected, which the summary says)."""
    with tempfile.TemporaryDirectory(prefix="wincni-hostile-ns-") as scratch:
        source, target = os.path.join(scratch, "a"), os.path.join(scratch, "b")
        os.mkdir(source)
        os.mkdir(target)
        for prefix in _candidates():
            try:
                trial = subprocess.run(prefix + ["mount", "--bind", source, target], capture_output=True,
                                       timeout=10, check=False)
            except (OSError, subprocess.TimeoutExpired):
                continue
            if trial.returncode == 0:
                return prefix
    return []


def bind_var_lib(directory: str) -> None:
    subprocess.run(["mount", "--bind", directory, "/var/lib"], check=True, capture_output=True)
