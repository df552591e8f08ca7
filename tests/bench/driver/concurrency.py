"""Pods added by parallel workers through flannel on a host-gw node, as a
node that starts many pods at once sees them: throughput, latency per ADD,
and how many failed; then the same for their DELs, and whether the node is
clean afterwards (hnsctl audit)."""

import time
from concurrent.futures import ThreadPoolExecutor

from . import cni_calls, figures, processes
from .node import Node
from .scenarios import at_version, by_name


def measure(binaries, pods, workers):
    scenario = by_name("flannel→win-bridge")
    with Node(binaries, "concurrency") as node:
        config = at_version(scenario.prepare(node))
        namespaces = [node.create_namespace() for _ in range(pods)]
        result = {"pods": pods, "workers": workers}
        for command in ("ADD", "DEL"):
            result[command] = _wave(node, binaries.flannel, command, config, namespaces, workers)
        audit = processes.run(binaries.hnsctl, node.env(), args=("audit",))
        result["clean_after"] = audit.ok
    return result


def _wave(node, binary, command, config, namespaces, workers):
    def one(index):
        return cni_calls.call(node, binary, command, config, f"pod-{index}", namespaces[index])

    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        outcomes = list(pool.map(one, range(len(namespaces))))
    elapsed = time.perf_counter() - start
    return dict(figures.summary_ms([outcome.wall_seconds for outcome in outcomes]),
                errors=sum(1 for outcome in outcomes if not outcome.ok),
                seconds=round(elapsed, 3), per_second=round(len(outcomes) / elapsed, 1))
