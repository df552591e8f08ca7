"""`hnsctl collect` over hostile shapes of input (issue 52): its time must
grow with the bytes it reads, whatever their shape. Each shape is put on an
emulated node where collect takes it (the runtime's result cache or wincni's
log), collect runs, and its time beyond an empty node's is divided by the
MiB the shape adds. The reference is a plain log of the same size in the
same run: a shape's ratio near 1 is linear; a quadratic pass shows as a
ratio that grows with the size (the redaction's once took 17-72 s on
200 000 '[', docs/benchmarks.md)."""

import os

from . import figures, processes
from .node import Node

MIB = 1 << 20
# collect keeps the last 8 MiB of a log; a cache entry above 1 MiB is left
# out unread: the sizes stay inside both.
LOG_BYTES = 7 * MIB
CACHE_BYTES = 1000 * 1000


def _repeat(unit, size):
    return (unit * (size // len(unit) + 1))[:size]


def _plain_log(size):
    line = "2026-12-08T00:00:00.000Z info win-bridge ADD container 0123456789abcdef: endpoint created\n"
    return _repeat(line, size)


# name -> (where collect finds it, files as {name: text})
def _shapes():
    small = '{"kind":"cniCacheV1","containerId":"c","config":"e30="}'
    return {
        "plain log (reference)": ("log", {"wincni.log": _plain_log(LOG_BYTES)}),
        "deep nesting '[' (cache entry)": ("cache", {"deep": "[" * CACHE_BYTES}),
        "one long line of keys 'token=x,'": ("log", {"wincni.log": _repeat("token=x,", LOG_BYTES)}),
        "YAML block keys '  token: |'": ("log", {"wincni.log": _repeat("  token: |\n    v\n", LOG_BYTES)}),
        "short lines '\\n'": ("log", {"wincni.log": "\n" * LOG_BYTES}),
        "unclosed quote": ("log", {"wincni.log": 'password = """' + "x" * (LOG_BYTES - 14)}),
        "PEM END lines": ("log", {"wincni.log": _repeat("-----END RSA PRIVATE KEY-----\n", LOG_BYTES)}),
        "2000 small cache entries": ("cache", {f"entry-{i:04}": small for i in range(2000)}),
    }


def _collect(binaries, node, runs):
    env = node.env()
    samples = []
    for run in range(runs):
        out = node.path(f"bundle-{run}.zip")
        outcome = processes.run_ok(binaries.hnsctl, env, args=(
            "collect", "--out", out, "--conf-dir", node.path("conf"), "--cache-dir", node.path("cache"),
            "--data-dir", node.path("ipam"), "--flannel-dir", node.path("flannel"), "--subnet-file",
            node.path("subnet.env"), "--log-file", node.path("log", "wincni.log"), "--repair-journal",
            node.path("journal.log"), "--bin-dir", node.path("bin"), "--containerd-config", "none"))
        samples.append(outcome.wall_seconds)
        os.remove(out)
    return figures.median(samples)


def _node_with(binaries, label, where, files):
    node = Node(binaries, label)
    for folder in ("conf", "cache", "ipam", "flannel", "log", "bin"):
        os.makedirs(node.path(folder))
    total = 0
    for name, text in files.items():
        with open(node.path(where, name), "w") as f:
            f.write(text)
        total += len(text)
    return node, total


def measure(binaries, runs):
    """Per shape: bytes, median seconds, ms per MiB beyond an empty node, and
    that figure over the plain log's."""
    with Node(binaries, "collect-empty") as empty:
        for folder in ("conf", "cache", "ipam", "flannel", "log", "bin"):
            os.makedirs(empty.path(folder))
        baseline = _collect(binaries, empty, runs)
    results = {"empty_node_ms": round(baseline * 1e3, 1), "shapes": {}}
    for label, (where, files) in _shapes().items():
        node, total = _node_with(binaries, "collect", where, files)
        with node:
            seconds = _collect(binaries, node, runs)
        per_mib = max(seconds - baseline, 0.0) * 1e3 / (total / MIB)
        results["shapes"][label] = {"bytes": total, "median_ms": round(seconds * 1e3, 1),
                                    "ms_per_mib": round(per_mib, 2)}
    reference = results["shapes"]["plain log (reference)"]["ms_per_mib"]
    for figures_of_shape in results["shapes"].values():
        figures_of_shape["ratio"] = round(figures_of_shape["ms_per_mib"] / reference, 2) if reference > 0 else None
    return results
