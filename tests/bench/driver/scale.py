"""ADD and DEL of one more pod, and STATUS (every kubelet poll), on a node
that already has 0, 100, 1000 and 5000 pod endpoints: HNS calls and bytes
per command from the journal (one journaled round per level, since the
journal's writing costs time), and the wall time of rounds run without it.
The existing endpoints are copies of one a real ADD made
(tests/bench/populate_node.cpp), their addresses reserved in host-local's
store as ADDs would have left them."""

import ipaddress
import os

from . import cni_calls, figures, hns_journal, processes
from .node import Node
from .scenarios import at_version, conf_example

NETWORK = "cbr0"
SUBNET = "10.240.0.0/16"
# The copies' addresses; the measured pods get theirs from the range's start.
FIRST_COPY = ipaddress.IPv4Address("10.240.32.0")
# The node's own endpoint on the network (hnsctl node host-gw's cbr0_ep).
NODE_ENDPOINTS = 1
WARMUP_ROUNDS = 3
COMMANDS = ("ADD", "DEL", "STATUS")
# STATUS is about the network, not a pod: no container ID, no namespace.
_POD_COMMANDS = ("ADD", "DEL")


def _config(node):
    config = at_version(conf_example("win-bridge-containerd.conf"))
    config["ipam"] = {"type": "host-local", "subnet": SUBNET, "rangeStart": "10.240.0.10",
                      "rangeEnd": "10.240.31.254", "dataDir": node.ipam_dir}
    return config


class ScaledNode:
    def __init__(self, node, binaries, config, netns):
        self.node, self.binaries, self.config, self.netns = node, binaries, config, netns
        self.existing = 0

    def grow_to(self, count):
        """Adds copies until `count` pod endpoints are on the node."""
        if count == self.existing:
            return
        if self.existing == 0:
            cni_calls.call_ok(self.node, self.binaries.win_bridge, "ADD", self.config, "scale-template", self.netns)
            self.existing = 1
        copies = count - self.existing
        first = FIRST_COPY + (self.existing - 1)
        on_network = processes.run_ok(self.binaries.populate_node, {},
                                      args=(self.node.path("hns"), f"scale-template_{NETWORK}", str(copies),
                                            str(first))).out
        if int(on_network) != count + NODE_ENDPOINTS:
            raise SystemExit(f"scale: {on_network.strip()} endpoints on {NETWORK}, {count + NODE_ENDPOINTS} wanted")
        store = os.path.join(self.node.ipam_dir, NETWORK)
        for index in range(copies):
            address = first + index
            with open(os.path.join(store, str(address)), "w", newline="") as f:
                f.write(f"scale-{address}\r\neth0")
        self.existing = count


def measure(binaries, levels, runs):
    """[{existing, ADD: {calls, bytes, median_ms, p99_ms}, DEL: {...}, STATUS: {...}}] per level."""
    results = []
    with Node(binaries, "scale") as node:
        node.host_gw(SUBNET, NETWORK)
        config = _config(node)
        netns = node.create_namespace()
        scaled = ScaledNode(node, binaries, config, netns)
        for level in levels:
            scaled.grow_to(level)
            results.append(dict(existing=level, **_measure_level(node, binaries.win_bridge, config, netns, level, runs)))
    return results


def _call(node, binary, command, config, pod, netns, **extra_env):
    if command in _POD_COMMANDS:
        return cni_calls.call_ok(node, binary, command, config, pod, netns, **extra_env)
    return cni_calls.call_ok(node, binary, command, config, **extra_env)


def _measure_level(node, binary, config, netns, level, runs):
    level_result = {}
    journal = node.path("journal")
    for command in COMMANDS:
        _call(node, binary, command, config, f"journaled-{level}", netns, WINCNI_EMULATOR_JOURNAL=journal)
        calls, exchanged = hns_journal.traffic(journal)
        level_result[command] = {"hns_calls": calls, "hns_bytes": exchanged}
    wall = {command: [] for command in COMMANDS}
    # As in the latency part, a few unmeasured rounds first: the first level
    # would otherwise also pay for a node just made (cold caches), and after
    # the copies are added host-local rebuilds its owner index once.
    for round_index in range(-WARMUP_ROUNDS, runs):
        pod = f"pod-{level}-{round_index}"
        for command in COMMANDS:
            outcome = _call(node, binary, command, config, pod, netns)
            if round_index >= 0:
                wall[command].append(outcome.wall_seconds)
    for command in COMMANDS:
        level_result[command].update(figures.summary_ms(wall[command]))
    return level_result


def ratios(results):
    """The last level's figures over the first's, per command."""
    first, last = results[0], results[-1]
    return {command: {figure: round(last[command][figure] / first[command][figure], 3)
                      for figure in ("hns_calls", "hns_bytes", "median_ms")}
            for command in COMMANDS}
