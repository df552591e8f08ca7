#!/usr/bin/env python3
"""Differential test: our host-local against the reference (Debian's
containernetworking-plugins) on the same sequences of ADD / DEL / CHECK.

Each scenario is played four times, each time in a fresh data directory:
by the reference alone, by ours alone, and by the two interleaved (every
other step, starting with either). Every step must give the same outcome
(success, or failure with the same message), the same result JSON, and
leave the same files with the same contents. Then the differences we made
on purpose are checked on both binaries, each with its reason.

usage: differential.py OURS REFERENCE"""

import json
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree

from plugin_runner import SKIP, ScratchDir, directory_state, run

NETWORK = "difftest"


def config(data_dir, version, ipam, **top):
    conf = {"cniVersion": version, "name": NETWORK, "type": "bridge",
            "ipam": dict(ipam, type="host-local", dataDir=data_dir)}
    conf.update(top)
    return conf


def step(command, container_id="", ifname="eth0", cni_args="", **top):
    return {"command": command, "id": container_id, "ifname": ifname, "cni_args": cni_args, "top": top}


def seed(name, content):
    """Writes a file into the network directory in every run alike."""
    return {"seed": name, "content": content}


SINGLE_V4 = {"subnet": "10.1.2.0/24", "rangeStart": "10.1.2.10", "rangeEnd": "10.1.2.20"}
DUAL_STACK = {
    "ranges": [[{"subnet": "10.1.2.0/24"}, {"subnet": "10.2.2.0/24"}], [{"subnet": "2001:db8:1::/64"}]],
    "routes": [{"dst": "0.0.0.0/0"}, {"dst": "::/0"}, {"dst": "192.168.0.0/16", "gw": "1.1.1.1"}],
}

SCENARIOS = [
    ("IPv4, one range: round robin, duplicates, CHECK, idempotent DEL", "0.4.0", SINGLE_V4, [
        step("ADD", "c1"), step("ADD", "c2"), step("ADD", "c1"), step("CHECK", "c1"), step("CHECK", "c9"),
        step("DEL", "c1"), step("CHECK", "c1"), step("ADD", "c3"), step("ADD", "c1"), step("DEL", "c2"),
        step("DEL", "c2"), step("DEL", "never-added"), step("ADD", "c4"), step("ADD", "c5"),
    ]),
    ("IPv6, explicit start and end", "1.0.0",
     {"ranges": [[{"subnet": "2001:db8:1::/64", "rangeStart": "2001:db8:1::ff00", "rangeEnd": "2001:db8:1::ff04"}]]}, [
        step("ADD", "a"), step("ADD", "b"), step("ADD", "c"), step("DEL", "b"), step("ADD", "d"),
        step("ADD", "b"), step("ADD", "a"), step("ADD", "e"), step("ADD", "f"), step("CHECK", "d"),
        step("DEL", "a"), step("ADD", "f"),
    ]),
    ("dual stack, two ranges in the v4 set, routes", "1.0.0", DUAL_STACK, [
        step("ADD", "x"), step("ADD", "y"), step("DEL", "x"), step("ADD", "z"), step("CHECK", "y"),
        step("CHECK", "x"), step("ADD", "y"), step("DEL", "y"), step("DEL", "z"), step("ADD", "x"),
    ]),
    ("dual stack in the old 0.2.0 result format", "0.2.0",
     {"ranges": [[{"subnet": "10.5.0.0/24"}], [{"subnet": "fd00:5::/120"}]]}, [
        step("ADD", "a"), step("ADD", "b"), step("DEL", "a"), step("ADD", "c"),
    ]),
    ("several ranges in one set: advance, wrap around, exhaust", "1.0.0",
     {"ranges": [[{"subnet": "10.0.0.0/30"}, {"subnet": "10.0.1.0/30"}, {"subnet": "10.0.2.0/30"}]]}, [
        step("ADD", "a"), step("ADD", "b"), step("ADD", "c"), step("ADD", "d"), step("DEL", "b"),
        step("ADD", "d"), step("ADD", "e"), step("DEL", "a"), step("ADD", "e"), step("DEL", "c"),
        step("ADD", "c"),
    ]),
    ("requested addresses: args, CNI_ARGS, runtimeConfig; taken, gateway, outside every range", "1.0.0",
     {"ranges": [[{"subnet": "10.1.2.0/24"}], [{"subnet": "10.1.3.0/24"}]]}, [
        step("ADD", "a", args={"cni": {"ips": ["10.1.2.88", "10.1.3.77"]}}),
        step("ADD", "b", cni_args="IgnoreUnknown=1;IP=10.1.2.99;K8S_POD_NAME=web"),
        step("ADD", "c", runtimeConfig={"ips": ["10.1.2.88"]}),
        step("ADD", "d", args={"cni": {"ips": ["10.1.2.1"]}}),
        step("ADD", "e", runtimeConfig={"ips": ["10.9.9.9/24"]}),
        step("ADD", "f"),
        step("ADD", "g", cni_args="IgnoreUnknown=1;IP=10.1.3.78"),
        step("ADD", "h", cni_args="IP=10.1.3.79"),
        step("DEL", "a"), step("ADD", "a", args={"cni": {"ips": ["10.1.3.77"]}}),
    ]),
    ("exhaustion of a narrow range", "0.3.1",
     {"subnet": "192.168.5.0/29", "rangeStart": "192.168.5.2", "rangeEnd": "192.168.5.4"}, [
        step("ADD", "a"), step("ADD", "b"), step("ADD", "c"), step("ADD", "d"), step("DEL", "b"),
        step("ADD", "d"), step("ADD", "e"), step("DEL", "a"), step("DEL", "c"), step("ADD", "e"),
    ]),
    ("legacy bare-ID reservation files", "1.0.0", {"subnet": "10.1.2.0/24"}, [
        step("ADD", "first"), seed("10.1.2.7", "legacy"), step("ADD", "legacy"), step("CHECK", "legacy"),
        step("DEL", "legacy"), step("ADD", "legacy"), seed("10.1.2.9", "old"), step("DEL", "old"),
        step("ADD", "next"),
    ]),
    ("one container, two interfaces", "1.0.0", {"subnet": "10.1.2.0/24"}, [
        step("ADD", "c", "eth0"), step("ADD", "c", "eth1"), step("ADD", "c", "eth0"), step("DEL", "c", "eth0"),
        step("CHECK", "c", "eth1"), step("CHECK", "c", "eth0"), step("ADD", "c", "eth0"), step("DEL", "c", "eth1"),
    ]),
    ("a round-robin position outside the ranges", "1.0.0", {"subnet": "10.1.2.0/24"}, [
        seed("last_reserved_ip.0", "10.200.0.1"), step("ADD", "a"), seed("last_reserved_ip.0", "garbage"),
        step("ADD", "b"), seed("last_reserved_ip.0", "10.1.2.254"), step("ADD", "c"),
    ]),
    ("config errors: the reference's messages", "1.0.0", {"subnet": "10.1.2.5/24"}, [
        step("ADD", "a"),
        step("ADD", "a", ipam={"ranges": [[{"subnet": "10.1.2.0/24"}], [{"subnet": "10.1.0.0/16"}]]}),
        step("ADD", "a", ipam={"ranges": [[{"subnet": "10.1.0.0/22"}, {"subnet": "10.1.2.0/24"}]]}),
        step("ADD", "a", ipam={"ranges": [[{"subnet": "10.1.0.0/24"}, {"subnet": "fd00::/64"}]]}),
        step("ADD", "a", ipam={"subnet": "10.1.2.0/31"}),
        step("ADD", "a", ipam={"subnet": "10.1.2.0/24", "rangeStart": "10.1.2.50", "rangeEnd": "10.1.2.40"}),
        step("ADD", "a", ipam={"subnet": "10.1.2.0/24", "rangeEnd": "10.1.3.1"}),
        step("ADD", "a", ipam={"type": "host-local"}),
        step("ADD", "a", cniVersion="0.2.0", ipam={"ranges": [[{"subnet": "10.1.0.0/24"}], [{"subnet": "10.2.0.0/24"}]]}),
    ]),
]


def normalized(result):
    """The result as a runtime reads it. Debian's reference (CNI library
    1.1.2) prints an empty "dns": {} in 1.0.0 results, which later libraries
    and ours omit; both read back as no DNS."""
    if isinstance(result, dict) and result.get("dns") == {}:
        result = {k: v for k, v in result.items() if k != "dns"}
    return result


def play(scenario, binaries, data_dir):
    """Plays the scenario's steps, step i with binaries[i % len(binaries)].
    Returns one (outcome, directory state) per step."""
    _, version, ipam, steps = scenario
    network_dir = os.path.join(data_dir, NETWORK)
    record = []
    binary_index = 0
    for s in steps:
        if "seed" in s:
            os.makedirs(network_dir, exist_ok=True)
            with open(os.path.join(network_dir, s["seed"]), "w", newline="") as f:
                f.write(s["content"])
            continue
        top = dict(s["top"])
        step_ipam = top.pop("ipam", ipam)
        step_version = top.pop("cniVersion", version)
        binary = binaries[binary_index % len(binaries)]
        binary_index += 1
        o = run(binary, s["command"], config(data_dir, step_version, step_ipam, **top), s["id"], s["ifname"],
                s["cni_args"])
        outcome = {"ok": o.ok, "result": normalized(o.out) if o.ok else None, "msg": None if o.ok else o.msg}
        record.append((s, outcome, directory_state(network_dir)))
    return record


def describe(s):
    extra = {k: v for k, v in s["top"].items()}
    return f'{s["command"]} {s["id"]}/{s["ifname"]}' + (f' {s["cni_args"]}' if s["cni_args"] else "") + \
        (f" {json.dumps(extra)}" if extra else "")


def compare_scenarios(ours, reference):
    failures = []
    modes = {
        "reference alone": [reference],
        "ours alone": [ours],
        "interleaved, ours first": [ours, reference],
        "interleaved, reference first": [reference, ours],
    }
    for scenario in SCENARIOS:
        before = len(failures)
        records = {}
        for mode, binaries in modes.items():
            with ScratchDir() as d:
                records[mode] = play(scenario, binaries, d)
        baseline = records["reference alone"]
        for mode, record in records.items():
            for i, ((s, outcome, state), (_, expected, expected_state)) in enumerate(zip(record, baseline)):
                where = f"[{scenario[0]}] step {i + 1} ({describe(s)}), {mode}"
                if outcome != expected:
                    failures.append(f"{where}: outcome {json.dumps(outcome)} != reference {json.dumps(expected)}")
                if state != expected_state:
                    failures.append(f"{where}: files {json.dumps(state)} != reference {json.dumps(expected_state)}")
        verdict = "ok same" if len(failures) == before else "FAILED different"
        print(f"{verdict}: {scenario[0]} ({len(baseline)} steps x {len(modes)} runs)")
    return failures


# Differences we made on purpose. Each runs on both binaries in fresh data
# directories and states what each must do, so the list stays true.
def deliberate_differences(ours, reference):
    checks = []

    def check(name, reason, ours_ok, reference_ok):
        checks.append((name, reason, ours_ok, reference_ok))

    # 1. Error codes.
    with ScratchDir() as d:
        conf = config(d, "1.0.0", {"subnet": "10.1.2.0/30"})
        r_ours = [run(ours, "ADD", conf, "a"), run(ours, "ADD", conf, "b"), run(ours, "ADD", conf, "a")]
    with ScratchDir() as d:
        conf = config(d, "1.0.0", {"subnet": "10.1.2.0/30"})
        r_ref = [run(reference, "ADD", conf, "a"), run(reference, "ADD", conf, "b"), run(reference, "ADD", conf, "a")]
    check("error codes", "the reference reports every allocation failure as 999 (untyped); ours use 110 for no "
          "free address and 111 for a duplicate allocation, and 7 for invalid configs",
          [o.code for o in r_ours[1:]] == [110, 111], [o.code for o in r_ref[1:]] == [999, 999])

    # 2. DEL of a config whose ranges no longer validate.
    def del_after_bad_edit(binary):
        with ScratchDir() as d:
            run(binary, "ADD", config(d, "1.0.0", {"subnet": "10.1.2.0/24"}), "a")
            o = run(binary, "DEL", config(d, "1.0.0", {"subnet": "10.1.2.1/24"}), "a")
            return o.ok, os.path.exists(os.path.join(d, NETWORK, "10.1.2.2"))
    check("DEL with a config whose ranges became invalid",
          "releasing needs only the network name and dataDir; the reference fails the DEL, so the runtime retries "
          "forever and the address stays taken",
          del_after_bad_edit(ours) == (True, False), del_after_bad_edit(reference) == (False, True))

    # 3. CHECK against prevResult.
    def check_with_wrong_prev(binary):
        with ScratchDir() as d:
            conf = config(d, "1.0.0", {"subnet": "10.1.2.0/24"})
            run(binary, "ADD", conf, "a")
            conf["prevResult"] = {"cniVersion": "1.0.0", "ips": [{"address": "10.1.2.9/24"}]}
            return run(binary, "CHECK", conf, "a").ok
    check("CHECK compares the allocation with prevResult", "the reference only checks that some address exists",
          not check_with_wrong_prev(ours), check_with_wrong_prev(reference))

    # 4. Empty reservation files.
    def del_sweeps_empty(binary):
        with ScratchDir() as d:
            conf = config(d, "1.0.0", {"subnet": "10.1.2.0/24"})
            run(binary, "ADD", conf, "a")
            open(os.path.join(d, NETWORK, "10.1.2.50"), "w").close()
            run(binary, "DEL", conf, "b")
            return os.path.exists(os.path.join(d, NETWORK, "10.1.2.50"))
    check("an empty reservation file is released by the next DEL",
          "it is what a writer killed between create and write leaves (the reference can leave one); under the "
          "lock it can have no live owner, and nothing else would ever release it",
          not del_sweeps_empty(ours), del_sweeps_empty(reference))

    # 5. CNI_ARGS with the Kubernetes keys but no IgnoreUnknown.
    def k8s_args(binary):
        with ScratchDir() as d:
            return run(binary, "ADD", config(d, "1.0.0", {"subnet": "10.1.2.0/24"}), "a",
                       cni_args="K8S_POD_NAMESPACE=ns;K8S_POD_NAME=web").ok
    check("CNI_ARGS with the K8S_POD_* keys and no IgnoreUnknown",
          "every runtime sends these keys; the reference fails the ADD unless IgnoreUnknown is also set",
          k8s_args(ours), not k8s_args(reference))

    # 6. Files are private.
    def modes(binary):
        with ScratchDir() as d:
            run(binary, "ADD", config(d, "1.0.0", {"subnet": "10.1.2.0/24"}), "a")
            net = os.path.join(d, NETWORK)
            return (oct(os.stat(net).st_mode & 0o777), oct(os.stat(os.path.join(net, "10.1.2.2")).st_mode & 0o777))
    check("directories 0700 and files 0600", "reservations name the node's containers; the reference uses "
          "0755 and 0644", modes(ours) == ("0o700", "0o600"), modes(reference) == ("0o755", "0o644"))

    failures = []
    for name, reason, ours_ok, reference_ok in checks:
        status = "ok" if ours_ok and reference_ok else "FAILED"
        print(f"{status} deliberate: {name} -- {reason}")
        if not ours_ok:
            failures.append(f"deliberate difference '{name}': ours does not behave as documented")
        if not reference_ok:
            failures.append(f"deliberate difference '{name}': the reference no longer behaves as documented")
    return failures


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    ours, reference = sys.argv[1], sys.argv[2]
    if not os.access(reference, os.X_OK):
        print(f"SKIP: reference host-local not found at {reference} (Debian package containernetworking-plugins)")
        return SKIP
    failures = compare_scenarios(ours, reference) + deliberate_differences(ours, reference)
    for f in failures:
        print("FAIL", f)
    print(f"{len(SCENARIOS)} scenarios, {len(failures)} differences")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
