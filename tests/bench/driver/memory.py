"""Peak resident set and peak private memory per command: a few rounds of
every command through the peak-rss launcher, after the timed ones; the
largest figures of each. A
round adds a pod, CHECKs the pod that stays, deletes the new pod, then runs
the commands that need no pod."""

from . import cni_calls

ROUNDS = 3
# What the launcher reports (processes.Outcome), the keys of every result;
# 0 when unknown (the private figure where ptrace is refused).
FIGURES = ("peak_rss_kib", "private_kib")


def peaks_kib(node, binary, configs, netns):
    """{command: {figure: KiB}} for every command in `configs` (ADD and DEL
    among them), each figure of FIGURES."""
    peaks = {}
    for round_index in range(ROUNDS):
        pod = f"memory-pod-{round_index}"
        sequence = ["ADD", "CHECK", "DEL"] + [command for command in configs if command not in ("ADD", "CHECK", "DEL")]
        for command in sequence:
            if command not in configs:
                continue
            outcome = cni_calls.call_in_round(node, binary, command, configs[command], pod, netns, measure_rss=True)
            seen = peaks.setdefault(command, dict.fromkeys(FIGURES, 0))
            for figure in FIGURES:
                seen[figure] = max(seen[figure], getattr(outcome, figure))
    return peaks
