"""The results as the tables scripts/bench.sh prints (Markdown, so that
README.md can quote them as they are)."""


from . import targets


def _table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def _mib(kib):
    return f"{kib / 1024:.1f}"


def _memory(figures):
    """Peak RSS in MiB and peak private memory in KiB, or blanks."""
    return [_mib(figures["peak_rss_kib"]) if "peak_rss_kib" in figures else "",
            figures.get("private_kib", "")]


def _latency(results, with_memory=True):
    """The latency table of the native run, or of the Wine pass (no memory)."""
    native_columns = ["in HNS ms", "× without HNS", "peak RSS MiB", "peak private KiB"] if with_memory else []
    floor = results["floor"]
    rows = [["spawn floor", "—", floor["median_ms"], floor["p99_ms"], 1, "", *["" for _ in native_columns]]]
    for scenario, commands in results["latency"].items():
        for command, figures in commands.items():
            native = [figures.get("hns_ms", ""), figures.get("multiple_without_hns", ""), *_memory(figures)]
            rows.append([scenario, command, figures["median_ms"], figures["p99_ms"], figures["processes"],
                         figures["multiple"], *(native if with_memory else [])])
    return _table(["plugin", "command", "median ms", "p99 ms", "processes", "× floor·processes", *native_columns],
                  rows)


def _reference(reference):
    rows = []
    for command, ratio in reference["ratio"].items():
        ours, theirs = reference["ours"][command], reference["reference"][command]
        rows.append([command, ours["median_ms"], theirs["median_ms"], ratio, ours["p99_ms"], theirs["p99_ms"],
                     *_memory(ours), *_memory(theirs)])
    return _table(["host-local", "ours median ms", "reference median ms", "ratio", "ours p99 ms",
                   "reference p99 ms", "ours RSS MiB", "ours private KiB", "reference RSS MiB",
                   "reference private KiB"], rows)


def _scale(scale):
    rows = []
    for level in scale["levels"]:
        for command in (key for key in level if key != "existing"):
            figures = level[command]
            rows.append([level["existing"], command, figures["hns_calls"], figures["hns_bytes"],
                         figures["median_ms"], figures["p99_ms"]])
    for command, ratios in scale["ratios"].items():
        rows.append([f"ratio {scale['levels'][-1]['existing']}/0", command, ratios["hns_calls"],
                     ratios["hns_bytes"], ratios["median_ms"], ""])
    return _table(["existing endpoints", "win-bridge", "HNS calls", "HNS bytes", "median ms", "p99 ms"], rows)


def _concurrency(concurrency):
    rows = [[command, concurrency[command]["per_second"], concurrency[command]["seconds"],
             concurrency[command]["median_ms"], concurrency[command]["p99_ms"], concurrency[command]["errors"]]
            for command in ("ADD", "DEL")]
    clean = "node clean after" if concurrency["clean_after"] else "node NOT clean after"
    return _table([f"flannel→win-bridge, {concurrency['pods']} pods, {concurrency['workers']} workers, {clean}",
                   "pods/s", "total s", "median ms", "p99 ms", "errors"], rows)


def _collect(collect):
    rows = [[shape, f["bytes"], f["median_ms"], f["ms_per_mib"], f["ratio"]] for shape, f in collect["shapes"].items()]
    return _table([f"hnsctl collect (empty node {collect['empty_node_ms']} ms)", "bytes", "median ms",
                   "ms per MiB beyond the empty node", "× plain log's"], rows)


def _sizes(sizes):
    rows = [[name, figures["bytes"], figures["stripped_bytes"]] for name, figures in sizes["native"].items()]
    rows += [[f"{name} (Windows release)", "", size] for name, size in sizes["windows"].items()]
    return _table(["binary", "bytes", "stripped bytes"], rows)


def _targets(checked, met="MET", missed="MISSED"):
    return _table(["target", "value", "limit", ""],
                  [[t["figure"], t["value"], f"≤ {t['limit']}", met if t["met"] else missed] for t in checked])


def render(results):
    machine = results["machine"]
    parts = [f"{machine['cpu_model']}, {machine['cpus']} CPUs, load average {machine['load_before']} before "
             f"and {machine['load_after']} after; {results['runs']} runs per figure; nodes in "
             f"{machine.get('nodes_in', 'the temporary folder')}; commit {machine['commit']}",
             "Latency on the HNS emulator (native release build)", _latency(results)]
    if results.get("wine"):
        parts += [f"Latency under Wine (the Windows release's .exe files, the emulator DLLs; "
                  f"{results['wine']['runs']} runs per figure)", _latency(results["wine"], with_memory=False)]
    if results.get("reference"):
        parts += ["host-local against the reference (Debian's containernetworking-plugins)",
                  _reference(results["reference"])]
    if results.get("scale"):
        parts += ["Scale: one more pod beside existing endpoints", _scale(results["scale"])]
    if results.get("concurrency"):
        parts += ["Concurrency", _concurrency(results["concurrency"])]
    if results.get("collect"):
        parts += ["hnsctl collect over hostile input: time per MiB against a plain log's", _collect(results["collect"])]
    parts += ["Sizes", _sizes(results["sizes"]), "Targets", _targets(results["targets"])]
    ratios = [[name, command, ratio] for name, command, ratio in targets.in_process_ratios(results["latency"])]
    if ratios:
        parts += ["Natively, each command's median with its delegates in process over the same with them "
                  "started as processes (for information)", _table(["scenario", "command", "ratio"], ratios)]
    if results.get("without_hns"):
        parts += ["The same limits on the plugins' own share, the time in HNS taken out (for information: "
                  "the targets are on the whole time)", _targets(results["without_hns"], "within", "over")]
    return "\n\n".join(parts) + "\n"
