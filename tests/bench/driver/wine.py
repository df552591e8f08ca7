"""The Wine pass: the latency table again, for the Windows release's .exe
files run by Wine on the HNS emulator DLLs (the prefix's system32 gets
computenetwork.dll and vmcompute.dll from the Windows test build, as for the
Wine test suites). Each program is reached through a two-line shell script
that runs `wine PROGRAM.exe`, so the driver starts them as it starts the
native ones; the Linux paths the driver hands them name the same files,
since a Wine process's current drive is Z:, the Linux root. The node is set
up by the native hnsctl: the emulator's store is the same for both.

The figures are Wine's, not Windows': a Wine process start costs tens of
milliseconds (the loader, the wineserver round trips), so every command is
mostly that, and the floor here is a trivial .exe started the same way."""

import contextlib
import glob
import os
import stat
import sys

from . import node
from .binaries import Binaries
from .scenarios import REPO

EMULATOR_DLLS = ("computenetwork.dll", "vmcompute.dll")
# What Wine needs from the environment, which the driver otherwise replaces.
WINE_VARIABLES = ("WINEPREFIX", "WINEDEBUG", "WINEDLLOVERRIDES", "HOME")


def _release_bin(release_dir):
    found = glob.glob(os.path.join(release_dir, "wincni-*", "bin"))
    if len(found) != 1:
        raise SystemExit(f"wine: {release_dir} holds no single wincni-*/bin (scripts/release.sh lays one out)")
    return found[0]


def _install_emulator(windows_build):
    sys.path.insert(0, os.path.join(REPO, "tests", "windows", "hns"))
    from run_in_prefix import install  # the Wine suites' own installer
    dlls = [os.path.join(windows_build, "hns-emulator", "dll", name) for name in EMULATOR_DLLS]
    missing = [dll for dll in dlls if not os.path.exists(dll)]
    if missing:
        raise SystemExit(f"wine: {', '.join(missing)} missing: build the Windows test build first")
    install(dlls)


def _launcher(scratch, exe):
    """A script that runs `exe` under Wine with this process's Wine settings."""
    script = os.path.join(scratch, os.path.splitext(os.path.basename(exe))[0])
    settings = " ".join(f"{name}='{os.environ[name]}'" for name in WINE_VARIABLES if name in os.environ)
    with open(script, "w") as f:
        f.write(f'#!/bin/sh\nexport {settings}\nexec wine "{exe}" "$@"\n')
    os.chmod(script, os.stat(script).st_mode | stat.S_IXUSR)
    return script


def binaries(release_dir, windows_build, native, scratch):
    """The release's programs behind launchers; hnsctl stays the native one."""
    # Absolute: the plugins never search a relative CNI_PATH entry.
    release_dir = os.path.abspath(release_dir)
    if "WINEPREFIX" not in os.environ:
        raise SystemExit("wine: WINEPREFIX is not set (scripts/bench.sh --wine sets up the prefix)")
    _install_emulator(windows_build)
    exe_dir = _release_bin(release_dir)
    floor = os.path.join(windows_build, "tests", "bench", "spawn-floor.exe")
    if not os.path.exists(floor):
        raise SystemExit(f"wine: {floor} missing: build the Windows test build's spawn-floor first")

    def launched(name):
        return _launcher(scratch, os.path.join(exe_dir, f"{name}.exe"))

    return Binaries(flannel=launched("flannel"), win_bridge=launched("win-bridge"), win_overlay=launched("win-overlay"),
                    host_local=launched("host-local"), hnsctl=native.hnsctl, spawn_floor=_launcher(scratch, floor),
                    peak_rss=None, populate_node=None, reference_host_local=None, delegate_dir=exe_dir)


@contextlib.contextmanager
def nodes_on_drive_c():
    """Nodes made meanwhile live on the prefix's drive C: (on disk), not in
    /dev/shm: Wine shows a sticky folder as one everybody may delete children
    of, and the plugins refuse a data folder below one
    (docs/reference/windows-acls.md)."""
    root = os.path.join(os.environ["WINEPREFIX"], "drive_c", "wincni-bench")
    os.makedirs(root, mode=0o755, exist_ok=True)
    previous = node.nodes_root()
    node.place_nodes_in(root)
    try:
        yield
    finally:
        node.place_nodes_in(previous)
