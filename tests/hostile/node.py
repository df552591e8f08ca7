"""An emulated Windows node in a scratch directory, for one worker: the HNS
emulator's state (flanneld's host-gw node: L2Bridge cbr0 on 10.244.1.0/24,
cbr0_ep at .2; and its vxlan node: Overlay flannel.4096 on 10.244.3.0/24;
one HCN namespace), flanneld's subnet.env for each (and the files no
flanneld writes, subnet_envs.py), the plugin, flannel and host-local data
dirs, and
the HOME, TMPDIR and working directory every plugin run gets. After each case
the node is put back exactly as it was (the emulator's state file restored,
whatever the case created removed), so cases do not depend on each other and
fault injection counts calls from zero every time."""

import json
import os
import shutil
import subprocess
from typing import Dict, Optional

import case
import subnet_envs
import tree_snapshot

# Areas of the scratch tree where plugins keep data; everything else (home,
# tmp, cwd, the fixtures) must come out of a run untouched.
DATA_AREAS = ("hns", "plugin", "ipam", "flannel", "varlib")


# What each broken IPAM plugin does, whatever the command.
_BROKEN_IPAM = {
    "fails-without-error": "echo garbage; exit 1",
    "dies-of-a-signal": "kill -KILL $$",
    "prints-no-json": "echo not json",
    "prints-nothing": "exit 0",
    "prints-no-ips": "echo '{\"cniVersion\":\"1.0.0\"}'",
    "gives-the-gateway": "echo '{\"cniVersion\":\"1.0.0\",\"ips\":[{\"address\":\"10.244.1.1/24\"}]}'",
    "gives-two-ipv4": "echo '{\"cniVersion\":\"1.0.0\",\"ips\":[{\"address\":\"10.244.1.7/24\"},"
                      "{\"address\":\"10.244.1.8/24\"}]}'",
    "gives-another-subnet": "echo '{\"cniVersion\":\"1.0.0\",\"ips\":[{\"address\":\"192.0.2.77/24\"}]}'",
    "gives-a-bad-version": "echo '{\"cniVersion\":\"9.9.9\",\"ips\":[{\"address\":\"10.244.1.7/24\"}]}'",
    "floods-its-output": "head -c 20000000 /dev/zero | tr '\\0' x; exit 1",
    # exec: the process the plugin kills is the one that sleeps.
    "never-answers": "exec sleep 30",
}
BROKEN_IPAM_KINDS = tuple(_BROKEN_IPAM)
HUNG_IPAM_KIND = "never-answers"


class Node:
    def __init__(self, root: str, binaries: Dict[str, str], varlib_bound: bool):
        self.root = root
        self.binaries = binaries
        # /var/lib is this node's varlib (a private mount namespace), so the
        # plugins' default data dirs land inside the scratch tree.
        self.varlib_bound = varlib_bound
        self.netns = ""
        self._build()

    def path(self, *parts: str) -> str:
        return os.path.join(self.root, *parts)

    def _build(self) -> None:
        for area in ("home", "tmp", "cwd", "hns", "ipam", "varlib", "fixtures/emptybin", "fixtures/badbin"):
            os.makedirs(self.path(area), exist_ok=True)
        for area in ("home", "tmp", "cwd"):
            # Something a stray write or delete would disturb.
            with open(self.path(area, "sentinel"), "w") as f:
                f.write(area)
        # CNI_PATH fixtures: a host-local that is not executable, a plain file.
        with open(self.path("fixtures/badbin/host-local"), "w") as f:
            f.write("#!/bin/sh\necho not a plugin\n")
        os.chmod(self.path("fixtures/badbin/host-local"), 0o644)
        with open(self.path("fixtures/afile"), "w") as f:
            f.write("a regular file where a directory is expected\n")
        with open(self.path("fixtures/resolv.conf"), "w") as f:
            f.write("nameserver 10.96.0.10\nsearch svc.cluster.local\noptions ndots:5\n")
        # A FIFO nobody writes to: opening it for reading blocks for ever.
        os.mkfifo(self.path("fixtures/fifo"))
        # IPAM plugins that misbehave, for win-bridge to delegate to.
        for kind, script in _BROKEN_IPAM.items():
            os.makedirs(self.path("fixtures", f"ipam-{kind}"))
            with open(self.path("fixtures", f"ipam-{kind}", "host-local"), "w") as f:
                f.write("#!/bin/sh\n" + script + "\n")
            os.chmod(self.path("fixtures", f"ipam-{kind}", "host-local"), 0o755)
        # A host-local data dir whose hint and staging file are FIFOs nobody
        # reads: opening them for writing blocks for ever.
        os.makedirs(self.path("fixtures/trapdir/cbr0"))
        os.mkfifo(self.path("fixtures/trapdir/cbr0/last_reserved_ip.0"))
        os.mkfifo(self.path("fixtures/trapdir/cbr0/.wincni-reserving"))
        subnet_envs.write(self.root)
        for backend, subnet, name in (("host-gw", "10.244.1.0/24", "cbr0"), ("vxlan", "10.244.3.0/24", "flannel.4096")):
            hnsctl = self.hnsctl("node", backend, "--subnet", subnet, "--name", name)
            if hnsctl.returncode != 0:
                raise RuntimeError(f"hnsctl node {backend} failed: {hnsctl.stdout}{hnsctl.stderr}")
        created = self.hnsctl("namespace", "create")
        if created.returncode != 0:
            raise RuntimeError(f"hnsctl namespace create failed: {created.stdout}{created.stderr}")
        self.netns = created.stdout.strip()
        # Docker has started the pod's container before a dockershim ADD.
        started = self.hnsctl("container", "start", case.CONTAINER)
        if started.returncode != 0:
            raise RuntimeError(f"hnsctl container start failed: {started.stdout}{started.stderr}")
        self.baseline_store = self.store_files()
        self.baseline_hns = self.hns_state()
        self.baseline_tree = tree_snapshot.snapshot(self.root)

    def hnsctl(self, *args: str) -> subprocess.CompletedProcess:
        env = {"PATH": "/usr/bin:/bin", "WINCNI_EMULATOR_DIR": self.path("hns"), "HOME": self.path("home"),
               "TMPDIR": self.path("tmp")}
        return subprocess.run([self.binaries["hnsctl"], *args], env=env, cwd=self.path("cwd"), capture_output=True,
                              text=True, timeout=30, check=False)

    def store_files(self) -> Dict[str, bytes]:
        """The emulator's store (hns-emulator/src/state_store.hpp), file
        by file, but for its lock."""
        files = {}
        store = self.path("hns")
        for directory, _, names in os.walk(store):
            for name in names:
                full = os.path.join(directory, name)
                rel = os.path.relpath(full, store)
                if rel != "state.lock":
                    with open(full, "rb") as f:
                        files[rel] = f.read()
        return files

    def hns_state(self) -> Optional[dict]:
        """The emulator's objects, {"Networks", "Endpoints", "Namespaces"} in
        creation order, and host.json without its call counters and creation
        number (bookkeeping, not HNS objects); None when unreadable."""
        if os.path.exists(self.path("hns", "commit.json")):
            # A plugin died mid-commit: any emulator call finishes it.
            self.hnsctl("network", "list")
        try:
            with open(self.path("hns", "host.json"), "rb") as f:
                state = json.load(f)
            for kind, wrapper in (("Networks", "networks"), ("Endpoints", "endpoints"), ("Namespaces", "namespaces")):
                items = []
                folder = self.path("hns", wrapper)
                for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
                    if name.endswith(".json"):
                        with open(os.path.join(folder, name), "rb") as f:
                            items.append(json.load(f))
                items.sort(key=lambda item: item.pop("Sequence"))
                state[kind] = [item["Namespace"] for item in items] if kind == "Namespaces" else items
        except (OSError, ValueError, KeyError):
            return None
        state.pop("CallCounts", None)
        state.pop("NextSequence", None)
        return state

    def tokens(self) -> Dict[bytes, bytes]:
        """What case texts say instead of this node's paths and IDs."""
        return {
            b"@ROOT@": self.root.encode(),
            b"@NETNS@": self.netns.encode(),
            # The node's bin folders, as CNI_PATH lists them: host-local and
            # flannel's delegates.
            b"@BIN@": ":".join(os.path.dirname(self.binaries[name])
                               for name in ("host-local", "win-bridge", "win-overlay")).encode(),
            b"@WBBIN@": os.path.dirname(self.binaries["win-bridge"]).encode(),
        }

    def substitute(self, data: bytes) -> bytes:
        for token, value in self.tokens().items():
            data = data.replace(token, value)
        return data

    def base_env(self) -> Dict[str, str]:
        env = {
            "PATH": "/usr/bin:/bin",
            "HOME": self.path("home"),
            "TMPDIR": self.path("tmp"),
            "WINCNI_EMULATOR_DIR": self.path("hns"),
            "WINCNI_DATA_DIR": self.path("plugin"),
        }
        # The suite's choice of delegates in process or as processes.
        if "WINCNI_DELEGATE_IN_PROCESS" in os.environ:
            env["WINCNI_DELEGATE_IN_PROCESS"] = os.environ["WINCNI_DELEGATE_IN_PROCESS"]
        return env

    def reset(self, now: Optional[Dict[str, tree_snapshot.Entry]] = None) -> None:
        """Back to the state after _build: created entries removed, the
        emulator's state restored. A case that removed or changed something
        of the baseline (already reported) gets the node rebuilt. `now` is
        the tree as the caller last saw it, when nothing ran since."""
        if now is None:
            now = tree_snapshot.snapshot(self.root)
        delta = tree_snapshot.diff(self.baseline_tree, now)
        damaged = [p for p in delta.removed + delta.changed if p.split(os.sep, 1)[0] != "hns"]
        if damaged:
            self.rebuild()
            return
        for rel in sorted(delta.created, key=len, reverse=True):
            full = self.path(rel)
            if os.path.isdir(full) and not os.path.islink(full):
                shutil.rmtree(full, ignore_errors=True)
            else:
                try:
                    os.unlink(full)
                except FileNotFoundError:
                    pass
        now_store = self.store_files()
        for rel in now_store.keys() - self.baseline_store.keys():
            os.unlink(self.path("hns", rel))
        for rel, content in self.baseline_store.items():
            if now_store.get(rel) != content:
                os.makedirs(os.path.dirname(self.path("hns", rel)), exist_ok=True)
                with open(self.path("hns", rel), "wb") as f:
                    f.write(content)
        # Only the store's files moved.
        for rel in self.baseline_store:
            st = os.lstat(self.path("hns", rel))
            self.baseline_tree[os.path.join("hns", rel)] = ("f", st.st_size, st.st_mtime_ns)

    def rebuild(self) -> None:
        for name in os.listdir(self.root):
            full = self.path(name)
            if name == "varlib" and self.varlib_bound:
                # The mount point stays; only what is inside goes.
                for inner in os.listdir(full):
                    shutil.rmtree(os.path.join(full, inner), ignore_errors=True)
                continue
            if os.path.isdir(full) and not os.path.islink(full):
                shutil.rmtree(full, ignore_errors=True)
            else:
                os.unlink(full)
        self._build()
