"""host-local against Debian's reference host-local: the same config (CNI
1.0.0, the newest the reference speaks, so no STATUS or GC), each with its
own store, rounds alternating between the two so that load from anything
else on the machine hits both alike."""

from . import cni_calls, figures, memory
from .latency import PLAIN_NETNS
from .node import Node
from .scenarios import with_prev_result

COMMANDS = ("VERSION", "ADD", "CHECK", "DEL")
WARMUP_ROUNDS = 3


def _config(node, label):
    return {"cniVersion": "1.0.0", "name": "bench", "type": "host-local",
            "ipam": {"type": "host-local", "subnet": "10.128.0.0/16", "dataDir": node.path(label)}}


def measure(binaries, runs):
    """{"ours"|"reference": {command: summary + peak_rss_kib, private_kib},
    "ratio": {...}, "rss_ratio": {...}, "private_ratio": {...}}, or
    None when the reference is not installed."""
    if binaries.reference_host_local is None:
        return None
    contenders = {"ours": binaries.host_local, "reference": binaries.reference_host_local}
    wall = {name: {command: [] for command in COMMANDS + ("ADD+DEL",)} for name in contenders}
    with Node(binaries, "reference") as node:
        configs = {}
        for name, binary in contenders.items():
            config = _config(node, name)
            kept = cni_calls.call_ok(node, binary, "ADD", config, cni_calls.KEPT_POD, PLAIN_NETNS).out
            configs[name] = {"VERSION": config, "ADD": config, "DEL": config,
                             "CHECK": with_prev_result(config, kept)}
        for round_index in range(-WARMUP_ROUNDS, runs):
            order = list(contenders) if round_index % 2 == 0 else list(reversed(contenders))
            for name in order:
                outcomes = {}
                for command in COMMANDS:
                    outcomes[command] = cni_calls.call_in_round(node, contenders[name], command,
                                                                configs[name][command], f"pod-{round_index}",
                                                                PLAIN_NETNS)
                if round_index < 0:
                    continue
                for command, outcome in outcomes.items():
                    wall[name][command].append(outcome.wall_seconds)
                wall[name]["ADD+DEL"].append(outcomes["ADD"].wall_seconds + outcomes["DEL"].wall_seconds)
        peaks = {name: memory.peaks_kib(node, binary, configs[name], PLAIN_NETNS) for name, binary in contenders.items()}

    result = {name: {command: dict(figures.summary_ms(samples),
                                   **peaks[name].get(command, {}))
                     for command, samples in wall[name].items()}
              for name in contenders}
    result["ratio"] = {command: round(result["ours"][command]["median_ms"] / result["reference"][command]["median_ms"], 3)
                       for command in wall["ours"]}
    for ratio, figure in (("rss_ratio", "peak_rss_kib"), ("private_ratio", "private_kib")):
        # 0: not measured (a machine that refuses ptrace has no private figure).
        result[ratio] = {command: round(result["ours"][command][figure] / result["reference"][command][figure], 3)
                         if result["reference"][command][figure] > 0 else None for command in COMMANDS}
    return result
