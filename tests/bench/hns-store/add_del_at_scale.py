#!/usr/bin/env python3
"""Benchmark: one win-bridge ADD and DEL on an emulated node that already
carries N endpoints, for each N given. Prints the median wall time
of ADD and of DEL per N, the ratio to the first N (usually 0), and the
CPU time (user + system, steadier than wall time on a loaded machine) and
bytes each read (medians; the plugin's and the emulator's reads, not
directory listings); never asserts on time. The rounds go node by node in
turn, so load from elsewhere falls on every N alike.

The node is set up as hnsctl sets up flanneld's host-gw backend, with a /16
so that 5,000 endpoints fit; hns-store-populate adds the N endpoints through
the emulator's API. The timed pod uses host-local IPAM (from the bottom of
the /16) and a namespace, as containerd runs win-bridge.

usage: add_del_at_scale.py HNSCTL WIN_BRIDGE HOST_LOCAL POPULATE [ROUNDS] [N...]
  defaults: 15 rounds; N = 0 1000 5000"""

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

SUBNET = "10.128.0.0/16"
POPULATED_FROM = "10.128.100.0"  # host-local's picks start at 10.128.0.2


def bytes_read_so_far():
    """read() bytes of this process and its reaped children (Linux adds a
    child's I/O counters to its parent's when the parent waits for it);
    directory listings are not counted."""
    with open("/proc/self/io") as f:
        for line in f:
            if line.startswith("rchar:"):
                return int(line.split()[1])
    return 0


def children_cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_timed(binary, env, stdin_bytes):
    """Wall seconds, CPU seconds and bytes read of one run."""
    read_before, cpu_before = bytes_read_so_far(), children_cpu_seconds()
    start = time.perf_counter()
    done = subprocess.run([binary], input=stdin_bytes, env=env, capture_output=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{binary} {env.get('CNI_COMMAND')} exited {done.returncode}: {done.stdout!r} {done.stderr!r}")
    return elapsed, children_cpu_seconds() - cpu_before, bytes_read_so_far() - read_before


class Node:
    """An emulated node carrying `count` endpoints, and the pod timed on it."""

    def __init__(self, count, tools):
        hnsctl, self.win_bridge, host_local, populate = tools
        self.count = count
        self.workdir = tempfile.mkdtemp(prefix=f"hns-store-bench-{count}-")
        self.hns_dir = os.path.join(self.workdir, "hns")
        env = {"PATH": "/usr/bin:/bin", "WINCNI_EMULATOR_DIR": self.hns_dir, "HOME": self.workdir}
        subprocess.run([hnsctl, "node", "host-gw", "--subnet", SUBNET, "--name", "cbr0"], env=env, check=True,
                       capture_output=True)
        self.netns = subprocess.run([hnsctl, "namespace", "create"], env=env, check=True, capture_output=True,
                                    text=True).stdout.strip()
        start = time.perf_counter()
        subprocess.run([populate, self.hns_dir, "cbr0", str(count), POPULATED_FROM], check=True)
        self.populate_seconds = time.perf_counter() - start
        self.cni_path = os.pathsep.join(sorted({os.path.dirname(self.win_bridge), os.path.dirname(host_local)}))
        self.config = json.dumps({
            "cniVersion": "1.0.0", "name": "cbr0", "type": "win-bridge", "apiVersion": 2,
            "ipam": {"type": "host-local", "subnet": SUBNET, "dataDir": os.path.join(self.workdir, "ipam")},
        }).encode()
        self.samples = {"ADD": [], "DEL": []}
        self.store_bytes = 0

    def add_del(self, index):
        env = {"PATH": "/usr/bin:/bin", "HOME": self.workdir, "TMPDIR": self.workdir,
               "WINCNI_EMULATOR_DIR": self.hns_dir, "WINCNI_DATA_DIR": os.path.join(self.workdir, "plugin"),
               "CNI_CONTAINERID": f"timed-{index}", "CNI_NETNS": self.netns, "CNI_IFNAME": "eth0",
               "CNI_PATH": self.cni_path}
        for command in ("ADD", "DEL"):
            self.samples[command].append(run_timed(self.win_bridge, dict(env, CNI_COMMAND=command), self.config))
        if not self.store_bytes:
            self.store_bytes = sum(os.path.getsize(os.path.join(root, name))
                                   for root, _, names in os.walk(self.hns_dir) for name in names)

    def median(self, command, field):
        return statistics.median(sample[field] for sample in self.samples[command])

    def remove(self):
        shutil.rmtree(self.workdir, ignore_errors=True)


def main():
    if len(sys.argv) < 5:
        print(__doc__)
        return 2
    tools = tuple(os.path.abspath(path) for path in sys.argv[1:5])
    rounds = int(sys.argv[5]) if len(sys.argv) > 5 else 15
    counts = [int(n) for n in sys.argv[6:]] or [0, 1000, 5000]
    nodes = [Node(count, tools) for count in counts]
    try:
        # Round by round across the nodes, so that load from elsewhere on the
        # machine falls on every N alike.
        for index in range(rounds):
            for node in nodes:
                node.add_del(index)
        print(f"{'endpoints':>9} {'ADD wall':>9} {'ADD cpu':>8} {'DEL wall':>9} {'DEL cpu':>8} "
              f"{'wall vs first':>13} {'cpu vs first':>12} {'ADD read':>9} {'DEL read':>9} {'store bytes':>11} "
              f"{'populate':>9}")
        first = nodes[0]
        for node in nodes:
            wall = node.median("ADD", 0) + node.median("DEL", 0)
            cpu = node.median("ADD", 1) + node.median("DEL", 1)
            first_wall = first.median("ADD", 0) + first.median("DEL", 0)
            first_cpu = first.median("ADD", 1) + first.median("DEL", 1)
            print(f"{node.count:>9} {node.median('ADD', 0) * 1e3:>7.1f}ms {node.median('ADD', 1) * 1e3:>6.1f}ms "
                  f"{node.median('DEL', 0) * 1e3:>7.1f}ms {node.median('DEL', 1) * 1e3:>6.1f}ms "
                  f"{wall / first_wall:>12.2f}x {cpu / first_cpu:>11.2f}x "
                  f"{node.median('ADD', 2) / 1024:>7.0f}KB {node.median('DEL', 2) / 1024:>7.0f}KB "
                  f"{node.store_bytes:>11} {node.populate_seconds:>8.1f}s", flush=True)
    finally:
        for node in nodes:
            node.remove()
    return 0


if __name__ == "__main__":
    sys.exit(main())
