"""Per-command latency of one scenario: ADD, CHECK, DEL, STATUS, GC and
VERSION in turn, `runs` times, with the spawn floor measured in the same
loop so that whatever else loads the machine hits every figure alike. ADD
and DEL take a new pod each round; CHECK and GC work on one pod that stays."""

from . import cni_calls, figures, hns_journal, memory, processes
from .census import Census
from .node import Node
from .scenarios import at_version, with_prev_result, with_valid_attachments

WARMUP_ROUNDS = 3
# Rounds run again with the emulator's journal, for the time HNS itself took
# (the journal's writing costs time, so the timed rounds run without it).
JOURNALED_ROUNDS = 20
# A round's commands, in the order the timed rounds run them.
COMMAND_ORDER = ("ADD", "DEL", "CHECK", "STATUS", "GC", "VERSION")
# What a runtime passes to a plugin that has no HNS namespace to attach to.
PLAIN_NETNS = "/var/run/netns/bench"


def measure(binaries, scenario, runs, floor_samples, processes_by_command=None):
    """{command: {median_ms, p99_ms, runs, processes, peak_rss_kib, private_kib,
    hns_ms}}; the spawn floor's samples are appended to `floor_samples`. Given
    `processes_by_command` (the Wine pass: the native census's, the same
    code delegating alike), the census is not taken, and neither memory nor the time in
    HNS is measured."""
    binary = scenario.binary(binaries)
    with Node(binaries, scenario.label()) as node:
        config = at_version(scenario.prepare(node))
        netns = node.create_namespace() if scenario.needs_namespace else PLAIN_NETNS
        kept = cni_calls.call_ok(node, binary, "ADD", config, cni_calls.KEPT_POD, netns).out
        configs = {"ADD": config, "DEL": config, "VERSION": config, "STATUS": config,
                   "CHECK": with_prev_result(config, kept),
                   "GC": with_valid_attachments(config, [cni_calls.KEPT_POD])}
        measure_memory = processes_by_command is None
        if measure_memory:
            processes_by_command = _census(node, binary, netns, configs)

        wall = {command: [] for command in configs}
        for round_index in range(-WARMUP_ROUNDS, runs):
            pod = f"pod-{round_index}"
            outcomes = {command: cni_calls.call_in_round(node, binary, command, configs[command], pod, netns)
                        for command in COMMAND_ORDER}
            floor = processes.run(binaries.spawn_floor, {})
            if round_index < 0:
                continue
            for command, outcome in outcomes.items():
                wall[command].append(outcome.wall_seconds)
            floor_samples.append(floor.wall_seconds)
        peaks = memory.peaks_kib(node, binary, configs, netns) if measure_memory else {}
        in_hns = _time_in_hns(node, binary, netns, configs) if measure_memory else {}

    return {command: dict(figures.summary_ms(wall[command]), processes=processes_by_command[command],
                          **peaks.get(command, {}), **in_hns.get(command, {}))
            for command in scenario.commands}


def _time_in_hns(node, binary, netns, configs):
    """{command: {"hns_ms": the median of the emulator's own time on the
    command's HNS calls}}, over JOURNALED_ROUNDS rounds like the timed ones."""
    journal = node.path("journal.jsonl")
    spent = {command: [] for command in configs}
    for round_index in range(JOURNALED_ROUNDS):
        pod = f"journaled-{round_index}"
        for command in COMMAND_ORDER:
            cni_calls.call_in_round(node, binary, command, configs[command], pod, netns,
                                    WINCNI_EMULATOR_JOURNAL=journal)
            spent[command].append(hns_journal.emulator_seconds(journal))
    return {command: {"hns_ms": round(figures.median(seconds) * 1e3, 3)} for command, seconds in spent.items()}


def _census(node, binary, netns, configs):
    """Processes per command; GC after DEL, so that it has nothing of the
    census pod's to collect and does what every measured GC does."""
    census = Census(node)
    counts = {}
    for command in ("VERSION", "ADD", "CHECK", "STATUS", "DEL", "GC"):
        container = cni_calls.container_for(command, "census-pod")
        counts[command] = census.processes(binary, command, configs[command], container,
                                           netns if container else "")
    return counts
