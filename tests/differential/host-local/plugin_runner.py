"""Runs a CNI IPAM plugin binary the way a runtime does: CNI_* environment,
the network config on stdin, the result or error JSON on stdout."""

import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from typing import Optional

# Exit code meson reads as "skipped".
SKIP = 77


@dataclass
class Outcome:
    exit_code: int
    out: Optional[dict]  # parsed stdout; None when it printed nothing
    stderr: str

    @property
    def ok(self) -> bool:
        return self.exit_code == 0

    @property
    def msg(self) -> str:
        return (self.out or {}).get("msg", "")

    @property
    def code(self) -> int:
        return (self.out or {}).get("code", 0)


def run(binary: str, command: str, config: dict, container_id: str = "", ifname: str = "eth0",
        cni_args: str = "", timeout: float = 60) -> Outcome:
    env = {
        "CNI_COMMAND": command,
        "CNI_CONTAINERID": container_id,
        "CNI_NETNS": "/var/run/netns/test",
        "CNI_IFNAME": ifname,
        "CNI_PATH": os.path.dirname(binary),
        "PATH": "/usr/sbin:/usr/bin:/sbin:/bin",
    }
    if cni_args:
        env["CNI_ARGS"] = cni_args
    proc = subprocess.run([binary], input=json.dumps(config).encode(), env=env, capture_output=True,
                          timeout=timeout, check=False)
    text = proc.stdout.decode()
    return Outcome(proc.returncode, json.loads(text) if text.strip() else None, proc.stderr.decode())


# Ours only: which files name which container (docs/host-local.md).
OWNER_INDEX = ".wincni-owners"


def directory_state(network_dir: str) -> dict:
    """Every file of a network directory but the lock and our owner index,
    with its content: what the two plugins must agree on."""
    state = {}
    if not os.path.isdir(network_dir):
        return state
    for name in sorted(os.listdir(network_dir)):
        if name in ("lock", OWNER_INDEX):
            continue
        path = os.path.join(network_dir, name)
        with open(path, "rb") as f:
            state[name] = f.read().decode(errors="replace")
    return state


class ScratchDir:
    def __enter__(self) -> str:
        self.path = tempfile.mkdtemp(prefix="wincni-host-local-")
        return self.path

    def __exit__(self, *exc) -> None:
        shutil.rmtree(self.path, ignore_errors=True)
