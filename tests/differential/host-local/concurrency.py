#!/usr/bin/env python3
"""Concurrency test: 200 ADDs in parallel on one network (16 in flight at a
time on this 2-core budget: really concurrent, never slow).

  1. a range larger than the demand: every ADD succeeds, every address once;
  2. a range smaller than the demand: exactly the surplus fails, each with the
     exhaustion error, and no address is handed out twice;
  3. dual stack with the v6 set the smaller: the ADDs that fail on it release
     the v4 address they took first, and none is handed out twice;
  4. ours and the reference side by side on one network (skipped when the
     reference is not installed);
  5. 200 parallel DELs leave no reservation behind;
  6. ADDs killed (SIGKILL) at random instants leave only reservations that
     name their owner, which the owners' DELs release.

usage: concurrency.py OURS [REFERENCE]"""

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

sys.dont_write_bytecode = True  # no __pycache__ in the source tree

from plugin_runner import ScratchDir, directory_state, run

DEMAND = 200
IN_FLIGHT = 16
NETWORK = "racenet"
NO_ADDRESS_AVAILABLE = 110


def config(data_dir, ranges):
    return {"cniVersion": "1.0.0", "name": NETWORK, "type": "bridge",
            "ipam": {"type": "host-local", "dataDir": data_dir, "ranges": ranges}}


def parallel(binaries, command, conf):
    """Container i runs `command` with binaries[i % len(binaries)]."""
    def one(i):
        return run(binaries[i % len(binaries)], command, conf, f"container-{i:03d}")
    with ThreadPoolExecutor(max_workers=IN_FLIGHT) as pool:
        return list(pool.map(one, range(DEMAND)))


def reservations(data_dir):
    """address -> owner, from the files on disk."""
    state = directory_state(os.path.join(data_dir, NETWORK))
    return {name: content for name, content in state.items() if not name.startswith("last_reserved_ip.")}


class Checker:
    def __init__(self):
        self.failures = []

    def expect(self, condition, what):
        if not condition:
            self.failures.append(what)
        return condition


def addresses_of(outcomes, family_index=0):
    return [o.out["ips"][family_index]["address"].split("/")[0] for o in outcomes if o.ok]


def check_allocation(c, name, outcomes, data_dir, capacity, exhaustion_msg=None):
    granted = addresses_of(outcomes)
    failed = [o for o in outcomes if not o.ok]
    expected_ok = min(DEMAND, capacity)
    c.expect(len(granted) == expected_ok, f"{name}: {len(granted)} ADDs succeeded, expected {expected_ok}")
    duplicates = [a for a, n in Counter(granted).items() if n > 1]
    c.expect(not duplicates, f"{name}: addresses handed out twice: {duplicates}")
    if exhaustion_msg is not None:
        wrong = [(o.code, o.msg) for o in failed if o.code != NO_ADDRESS_AVAILABLE or o.msg != exhaustion_msg]
        c.expect(not wrong, f"{name}: failures other than exhaustion: {wrong[:3]}")
    on_disk = reservations(data_dir)
    for i, o in enumerate(outcomes):
        if o.ok:
            address = o.out["ips"][0]["address"].split("/")[0]
            owner = on_disk.get(address)
            c.expect(owner == f"container-{i:03d}\r\neth0", f"{name}: {address} on disk says {owner!r}, "
                     f"handed to container-{i:03d}")
    print(f"{name}: {len(granted)} granted, {len(failed)} refused, {len(set(granted))} distinct")
    return granted


def killed_at_random(c, ours):
    """Starts ADDs and kills each after a random delay: whatever instant the
    kill lands on, a reservation file must already name its owner."""
    rng = random.Random(4)  # fixed seed: the delays vary, the check does not
    with ScratchDir() as d:
        conf = config(d, [[{"subnet": "10.50.0.0/16"}], [{"subnet": "fd00:50::/64"}]])
        text = json.dumps(conf).encode()
        ids = [f"victim-{i:03d}" for i in range(DEMAND // 2)]
        for cid in ids:
            env = {"CNI_COMMAND": "ADD", "CNI_CONTAINERID": cid, "CNI_NETNS": "/var/run/netns/test",
                   "CNI_IFNAME": "eth0", "CNI_PATH": os.path.dirname(ours)}
            proc = subprocess.Popen([ours], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, env=env)
            proc.stdin.write(text)
            proc.stdin.close()
            time.sleep(rng.uniform(0, 0.004))
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        on_disk = reservations(d)
        staging = [n for n in on_disk if n.startswith(".")]
        owned = {n: o for n, o in on_disk.items() if not n.startswith(".")}
        bad = {n: o for n, o in owned.items() if o.split("\r\n")[0] not in ids or not o.endswith("\r\neth0")}
        c.expect(not bad, f"killed ADDs: reservations without a valid owner: {bad}")
        for cid in ids:
            run(ours, "DEL", conf, cid)
        left = reservations(d)
        c.expect(left == {}, f"killed ADDs: DELs left {left}")
        print(f"killed ADDs: {len(ids)} killed, {len(owned)} reservations and {len(staging)} staging files left, "
              f"{len(left)} after their DELs")


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__)
        return 2
    ours = sys.argv[1]
    reference = sys.argv[2] if len(sys.argv) == 3 else None
    c = Checker()

    with ScratchDir() as d:
        conf = config(d, [[{"subnet": "10.10.0.0/16"}]])
        outcomes = parallel([ours], "ADD", conf)
        check_allocation(c, "range larger than demand", outcomes, d, capacity=65533)
        c.expect(len(reservations(d)) == DEMAND, "range larger than demand: files on disk != 200")
        dels = parallel([ours], "DEL", conf)
        c.expect(all(o.ok for o in dels), "parallel DEL: some failed")
        c.expect(reservations(d) == {}, f"parallel DEL: left {sorted(reservations(d))[:5]}")
        print(f"parallel DEL: {sum(o.ok for o in dels)} succeeded, {len(reservations(d))} reservations left")

    with ScratchDir() as d:
        ranges = [[{"subnet": "10.20.0.0/24", "rangeStart": "10.20.0.10", "rangeEnd": "10.20.0.160"}]]
        outcomes = parallel([ours], "ADD", config(d, ranges))
        check_allocation(c, "range smaller than demand", outcomes, d, capacity=151,
                         exhaustion_msg="failed to allocate for range 0: no IP addresses available in range set: "
                                        "10.20.0.10-10.20.0.160")

    with ScratchDir() as d:
        ranges = [[{"subnet": "10.30.0.0/24", "rangeStart": "10.30.0.2", "rangeEnd": "10.30.0.151"}],
                  [{"subnet": "fd00:30::/64", "rangeStart": "fd00:30::2", "rangeEnd": "fd00:30::79"}]]
        outcomes = parallel([ours], "ADD", config(d, ranges))
        check_allocation(c, "dual stack, v6 set smaller", outcomes, d, capacity=120,
                         exhaustion_msg="failed to allocate for range 1: no IP addresses available in range set: "
                                        "fd00:30::2-fd00:30::79")
        v6 = addresses_of(outcomes, 1)
        c.expect(len(set(v6)) == 120, f"dual stack: {len(set(v6))} distinct v6 addresses granted, expected 120")
        v4_files = [n for n in reservations(d) if n.startswith("10.30.")]
        c.expect(len(v4_files) == 120, f"dual stack: {len(v4_files)} v4 reservations on disk, expected 120 "
                                       "(failed ADDs must release theirs)")

    killed_at_random(c, ours)

    if reference and os.access(reference, os.X_OK):
        with ScratchDir() as d:
            outcomes = parallel([ours, reference], "ADD", config(d, [[{"subnet": "10.40.0.0/24"}]]))
            check_allocation(c, "ours and the reference side by side", outcomes, d, capacity=253)
    else:
        print("SKIP ours and the reference side by side: reference host-local not installed")

    for f in c.failures:
        print("FAIL", f)
    print(f"{len(c.failures)} failures")
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main())
