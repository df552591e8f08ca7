#!/usr/bin/env python3
"""Benchmark: ADD+DEL pairs, ours against the reference host-local, in one
run on one machine. Prints the median and p99 time per pair for each binary
and the ratio ours/reference; never asserts on time.

The pairs alternate between the binaries so that load from anything else on
the machine hits both alike. Processes are started with posix_spawn, the
cheapest way there is, and the cost of starting a trivial program (/bin/true,
twice) is printed as the floor no plugin can go below. The CPU time the two
processes of a pair used (user + system, from wait4) is printed too: on a
loaded machine it varies far less than the wall time.

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
    """Exit code and CPU seconds (user + system) of one run."""
    stdin = os.open(stdin_path, os.O_RDONLY)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        pid = os.posix_spawn(binary, [binary], env,
                             file_actions=[(os.POSIX_SPAWN_DUP2, stdin, 0), (os.POSIX_SPAWN_DUP2, devnull, 1)])
        _, status, usage = os.wait4(pid, 0)
    finally:
        os.close(stdin)
        os.close(devnull)
    return os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime


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
        add, add_cpu = spawn_and_wait(self.binary, dict(env, CNI_COMMAND="ADD"), self.config_path)
        delete, del_cpu = spawn_and_wait(self.binary, dict(env, CNI_COMMAND="DEL"), self.config_path)
        elapsed = time.perf_counter() - start
        if add != 0 or delete != 0:
            raise SystemExit(f"{self.binary}: ADD exited {add}, DEL exited {delete}")
        return elapsed, add_cpu + del_cpu


def floor_pair(config_path):
    start = time.perf_counter()
    _, first_cpu = spawn_and_wait(FLOOR_PROGRAM, {}, config_path)
    _, second_cpu = spawn_and_wait(FLOOR_PROGRAM, {}, config_path)
    return time.perf_counter() - start, first_cpu + second_cpu


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
        wall = {"ours": [], "reference": [], "floor": []}
        cpu = {"ours": [], "reference": [], "floor": []}

        def record(name, sample):
            wall[name].append(sample[0])
            cpu[name].append(sample[1])

        for i in range(pairs):
            first, second = (ours, reference) if i % 2 == 0 else (reference, ours)
            for plugin in (first, second):
                record("ours" if plugin is ours else "reference", plugin.pair(i))
            record("floor", floor_pair(ours.config_path))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    def ms(samples):
        return statistics.median(samples) * 1e3, p99(samples) * 1e3

    print(f"host-local ADD+DEL pairs: {pairs} per binary, alternating, cniVersion 1.0.0, one /16 range; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"{'':24}{'median ms':>12}{'p99 ms':>12}{'CPU median ms':>16}")
    for name, label in (("ours", "ours"), ("reference", "reference"), ("floor", f"floor ({FLOOR_PROGRAM} x2)")):
        print(f"{label:24}{ms(wall[name])[0]:12.2f}{ms(wall[name])[1]:12.2f}{ms(cpu[name])[0]:16.2f}")
    print(f"ratio ours/reference: median {ms(wall['ours'])[0] / ms(wall['reference'])[0]:.2f}, "
          f"p99 {ms(wall['ours'])[1] / ms(wall['reference'])[1]:.2f}, "
          f"CPU {ms(cpu['ours'])[0] / ms(cpu['reference'])[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
