#!/usr/bin/env python3
"""Benchmark: ADD+DEL pairs, ours against the reference host-local, in one
run on one machine. Prints the median and p99 time per pair for each binary
and the ratio ours/reference; never asserts on time.

The pairs alternate between the binaries so that load from anything else on
the machine hits both alike. Processes are started with posix_spawn, the
cheapest way there is, and the cost of starting a trivial program (/bin/true,
twice) is printed as the floor no plugin can go below.

usage: add_del_pairs.py OURS REFERENCE [PAIRS]"""

import json
import os
import shutil
import statistics
import sys
import tempfile
import time

FLOOR_PROGRAM = "/bin/true"


def spawn_and_wait(binary, env, stdin_path):
    stdin = os.open(stdin_path, os.O_RDONLY)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        pid = os.posix_spawn(binary, [binary], env,
                             file_actions=[(os.POSIX_SPAWN_DUP2, stdin, 0), (os.POSIX_SPAWN_DUP2, devnull, 1)])
        _, status = os.waitpid(pid, 0)
    finally:
        os.close(stdin)
        os.close(devnull)
    return os.waitstatus_to_exitcode(status)


class Plugin:
    """One binary with its own data directory and network config."""

    def __init__(self, binary, workdir, name):
        self.binary = binary
        self.config_path = os.path.join(workdir, f"{name}.json")
        data_dir = os.path.join(workdir, f"{name}-data")
        with open(self.config_path, "w") as f:
            json.dump({"cniVersion": "1.0.0", "name": "bench", "type": "bridge",
                       "ipam": {"type": "host-local", "subnet": "10.128.0.0/16", "dataDir": data_dir}}, f)

    def pair(self, index):
        env = {"CNI_CONTAINERID": f"bench-{index}", "CNI_NETNS": "/var/run/netns/bench", "CNI_IFNAME": "eth0",
               "CNI_PATH": os.path.dirname(self.binary)}
        start = time.perf_counter()
        add = spawn_and_wait(self.binary, dict(env, CNI_COMMAND="ADD"), self.config_path)
        delete = spawn_and_wait(self.binary, dict(env, CNI_COMMAND="DEL"), self.config_path)
        elapsed = time.perf_counter() - start
        if add != 0 or delete != 0:
            raise SystemExit(f"{self.binary}: ADD exited {add}, DEL exited {delete}")
        return elapsed


def floor_pair(config_path):
    start = time.perf_counter()
    spawn_and_wait(FLOOR_PROGRAM, {}, config_path)
    spawn_and_wait(FLOOR_PROGRAM, {}, config_path)
    return time.perf_counter() - start


def p99(samples):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__)
        return 2
    ours_binary, reference_binary = sys.argv[1], sys.argv[2]
    pairs = int(sys.argv[3]) if len(sys.argv) == 4 else 300
    if not os.access(reference_binary, os.X_OK):
        print(f"reference host-local not found at {reference_binary}: nothing to compare with")
        return 0
    workdir = tempfile.mkdtemp(prefix="wincni-bench-host-local-")
    try:
        ours, reference = Plugin(ours_binary, workdir, "ours"), Plugin(reference_binary, workdir, "reference")
        for warmup in range(5):
            ours.pair(f"warmup-{warmup}")
            reference.pair(f"warmup-{warmup}")
        samples = {"ours": [], "reference": [], "floor": []}
        for i in range(pairs):
            first, second = (ours, reference) if i % 2 == 0 else (reference, ours)
            for plugin in (first, second):
                samples["ours" if plugin is ours else "reference"].append(plugin.pair(i))
            samples["floor"].append(floor_pair(ours.config_path))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    ms = {name: (statistics.median(s) * 1e3, p99(s) * 1e3) for name, s in samples.items()}
    print(f"host-local ADD+DEL pairs: {pairs} per binary, alternating, cniVersion 1.0.0, one /16 range")
    print(f"{'':24}{'median ms':>12}{'p99 ms':>12}")
    for name, label in (("ours", "ours"), ("reference", "reference"), ("floor", f"floor ({FLOOR_PROGRAM} x2)")):
        print(f"{label:24}{ms[name][0]:12.2f}{ms[name][1]:12.2f}")
    print(f"ratio ours/reference: median {ms['ours'][0] / ms['reference'][0]:.2f}, "
          f"p99 {ms['ours'][1] / ms['reference'][1]:.2f}")
    above_floor = (ms["ours"][0] - ms["floor"][0]) / (ms["reference"][0] - ms["floor"][0])
    print(f"ratio above the floor (median): {above_floor:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
