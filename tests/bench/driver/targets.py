"""The project's targets (docs/benchmarks.md says why each), checked
against one run's results: a list of {figure, value, limit, met}."""

from .scenarios import AS_PROCESSES

# A command's median over (spawn floor × processes it runs), for the
# scenarios as shipped (delegates in process where they can be).
SPAWN_MULTIPLE_LIMITS = {"ADD": 2.0, "DEL": 1.6, "STATUS": 1.2}
# Under Wine: a command's median with its delegates in process over the same
# command with them started as processes, in the same run.
IN_PROCESS_RATIO_LIMITS = {"ADD": 0.6, "STATUS": 0.6}
IN_PROCESS_COMMANDS = ("ADD", "DEL", "STATUS")
# Ours over the reference's median, per ADD+DEL pair.
REFERENCE_RATIO_LIMIT = 0.35
# Per command, the figure at the most endpoints over the figure at none.
SCALE_RATIO_LIMIT = 1.2
# A plugin's largest peak RSS, and its largest peak private memory, over
# the reference host-local's.
MEMORY_RATIO_LIMIT = 0.6
MEMORY_FIGURES = (("peak_rss", "peak RSS"), ("peak_private", "peak private memory"))
# Each .exe of the Windows release as shipped (static, stripped), in MB of
# 10^6 bytes.
EXE_SIZE_LIMIT_MB = 1.5


def _target(figure, value, limit):
    return {"figure": figure, "value": value, "limit": limit, "met": value is not None and value <= limit}


def in_process_ratios(latency):
    """(scenario, command, in process / as processes) for each scenario that
    also ran with its delegates as processes."""
    for name, commands in latency.items():
        started = latency.get(name + AS_PROCESSES)
        if name.endswith(AS_PROCESSES) or not started:
            continue
        for command in IN_PROCESS_COMMANDS:
            if command in commands and command in started:
                yield name, command, round(commands[command]["median_ms"] / started[command]["median_ms"], 2)


def check(results):
    checked = []
    for name, command, ratio in in_process_ratios(results.get("wine", {}).get("latency", {})):
        if command in IN_PROCESS_RATIO_LIMITS:
            checked.append(_target(f"{name} {command} under Wine, in process / as processes", ratio,
                                   IN_PROCESS_RATIO_LIMITS[command]))
    for scenario, commands in results["latency"].items():
        if scenario.endswith(AS_PROCESSES):
            continue
        for command, limit in SPAWN_MULTIPLE_LIMITS.items():
            if command in commands:
                checked.append(_target(f"{scenario} {command} × floor", commands[command]["multiple"], limit))
    reference = results.get("reference")
    if reference:
        checked.append(_target("host-local ADD+DEL / reference", reference["ratio"]["ADD+DEL"],
                               REFERENCE_RATIO_LIMIT))
    scale = results.get("scale")
    if scale:
        last = scale["levels"][-1]["existing"]
        for command, ratios in scale["ratios"].items():
            for figure, ratio in ratios.items():
                checked.append(_target(f"win-bridge {command} {figure} at {last}/0", ratio, SCALE_RATIO_LIMIT))
    for result_key, label in MEMORY_FIGURES:
        peaks = results.get(result_key)
        if peaks and peaks.get("reference host-local"):
            for name, kib in peaks.items():
                if name != "reference host-local":
                    checked.append(_target(f"{name} {label} / reference host-local's",
                                           round(kib / peaks["reference host-local"], 3), MEMORY_RATIO_LIMIT))
    for name, size in sorted(results.get("sizes", {}).get("windows", {}).items()):
        checked.append(_target(f"{name} size, MB", round(size / 1e6, 3), EXE_SIZE_LIMIT_MB))
    return checked


def without_hns(results):
    """The spawn limits applied to the plugins' own share (the time in the
    emulator taken out), for the commands that call HNS: for information
    beside the targets, which are on the whole time."""
    rows = []
    for scenario, commands in results["latency"].items():
        if scenario.endswith(AS_PROCESSES):
            continue
        for command, limit in SPAWN_MULTIPLE_LIMITS.items():
            if commands.get(command, {}).get("hns_ms"):
                rows.append(_target(f"{scenario} {command} × floor without HNS",
                                    commands[command]["multiple_without_hns"], limit))
    return rows
