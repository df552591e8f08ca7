#!/usr/bin/env python3
"""The benchmark scripts/bench.sh runs: per-command latency of every plugin
on the HNS emulator against the process-spawn floor, host-local against
Debian's reference host-local, ADD and DEL beside growing numbers of
endpoints, pods added in parallel, and the binaries' size and peak memory.
Prints Markdown tables, writes them as JSON and draws a PNG; never fails on
a missed target (docs/benchmarks.md explains each figure and target)."""

import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile

from driver import (chart, collect_shapes, concurrency, figures, footprint, latency, node, reference, report, scale,
                    scenarios, targets, wine)
from driver.binaries import Binaries

PARTS = ("latency", "reference", "scale", "concurrency", "collect")
# The results' per-plugin memory figures, and the per-command figure each is the largest of.
PEAK_MEMORY = (("peak_rss", "peak_rss_kib"), ("peak_private", "private_kib"))


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", required=True, help="the release build directory (build/bench)")
    parser.add_argument("--out", help="where bench.json, bench.png and bench.md go (default: --build)")
    parser.add_argument("--runs", type=int, default=200, help="runs per command and plugin (default 200)")
    parser.add_argument("--plugins", default=",".join(s.name for s in scenarios.SCENARIOS),
                        help="comma-separated scenarios for the latency part (default: all five)")
    parser.add_argument("--parts", default=",".join(PARTS), help=f"comma-separated, of {', '.join(PARTS)}")
    parser.add_argument("--scale-levels", default="0,100,1000,5000", help="existing endpoints per step")
    parser.add_argument("--scale-runs", type=int, default=30, help="rounds (ADD, DEL, STATUS) timed per scale step")
    parser.add_argument("--pods", type=int, default=200, help="pods added in parallel (concurrency)")
    parser.add_argument("--workers", type=int, default=16, help="parallel workers (concurrency)")
    parser.add_argument("--collect-runs", type=int, default=5, help="hnsctl collect runs per input shape (default 5)")
    parser.add_argument("--windows-release", help="a release dist folder whose .exe sizes to report")
    parser.add_argument("--wine-release", help="a release dist folder whose .exe files to time under Wine too "
                        "(the latency part again; needs that part)")
    parser.add_argument("--wine-build", default="build/windows",
                        help="the Windows test build: the emulator DLLs and spawn-floor.exe for --wine-release")
    parser.add_argument("--node-dir", default=node.memory_folder(),
                        help="where the emulated nodes (HNS state, host-local's store) are made; default /dev/shm "
                        "(memory, as HNS keeps its state), else the system's temporary folder")
    parser.add_argument("--wine-runs", type=int, default=20, help="runs per command under Wine (default 20)")
    return parser.parse_args()


def machine():
    model = "unknown CPU"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    commit = subprocess.run(["git", "-C", scenarios.REPO, "rev-parse", "--short=12", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    return {"cpu_model": model, "cpus": len(os.sched_getaffinity(0)), "load_before": round(os.getloadavg()[0], 2),
            "commit": commit or "unknown", "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")}


def progress(text):
    print(f"bench: {text}", file=sys.stderr, flush=True)


def add_multiples(latency_results, floor):
    """Each command's median over (floor × the processes it runs); where the
    time in HNS was measured, also the median without it: the plugins' own
    share, what a real HNS would add its own time to."""
    for commands in latency_results.values():
        for command in commands.values():
            starts = floor["median_ms"] * command["processes"]
            command["multiple"] = round(command["median_ms"] / starts, 2)
            if "hns_ms" in command:
                command["multiple_without_hns"] = round((command["median_ms"] - command["hns_ms"]) / starts, 2)


def wine_pass(args, native, native_latency):
    """The latency table for the release's .exe files under Wine, with the
    process counts of the native census (the same code delegates alike)."""
    with tempfile.TemporaryDirectory(prefix="wincni-bench-wine-") as scratch, wine.nodes_on_drive_c():
        wine_binaries = wine.binaries(args.wine_release, args.wine_build, native, scratch)
        floor_samples, table = [], {}
        for name, commands in native_latency.items():
            progress(f"latency of {name} under Wine, {args.wine_runs} runs per command")
            counts = {command: measured["processes"] for command, measured in commands.items()}
            table[name] = latency.measure(wine_binaries, scenarios.by_name(name), args.wine_runs, floor_samples, counts)
    floor = figures.summary_ms(floor_samples)
    add_multiples(table, floor)
    return {"runs": args.wine_runs, "floor": floor, "latency": table}


def main():
    args = parse_args()
    parts = set(args.parts.split(","))
    binaries = Binaries.in_build(args.build)
    out_dir = args.out or args.build
    os.makedirs(out_dir, exist_ok=True)
    node.place_nodes_in(args.node_dir)
    results = {"machine": dict(machine(), nodes_in=args.node_dir or tempfile.gettempdir()), "runs": args.runs,
               "latency": {}}

    floor_samples = []
    if "latency" in parts:
        for name in args.plugins.split(","):
            scenario = scenarios.by_name(name)
            progress(f"latency of {scenario.name}, {args.runs} runs per command")
            results["latency"][scenario.name] = latency.measure(binaries, scenario, args.runs, floor_samples)
    results["floor"] = figures.summary_ms(floor_samples) if floor_samples else {"median_ms": 0, "p99_ms": 0}
    add_multiples(results["latency"], results["floor"])
    if args.wine_release:
        if not results["latency"]:
            raise SystemExit("bench: --wine-release needs the latency part (its process counts)")
        results["wine"] = wine_pass(args, binaries, results["latency"])
    # Per plugin, its largest figure over its commands; the reference's is added below.
    for result_key, figure in PEAK_MEMORY:
        results[result_key] = {name: max(c[figure] for c in commands.values())
                               for name, commands in results["latency"].items()}

    if "reference" in parts:
        progress(f"host-local against the reference, {args.runs} rounds")
        results["reference"] = reference.measure(binaries, args.runs)
        if results["reference"]:
            for result_key, figure in PEAK_MEMORY:
                results[result_key]["reference host-local"] = max(
                    c[figure] for c in results["reference"]["reference"].values() if figure in c)
    if "scale" in parts:
        levels = [int(level) for level in args.scale_levels.split(",")]
        progress(f"scale at {levels} existing endpoints, {args.scale_runs} pairs each")
        scale_levels = scale.measure(binaries, levels, args.scale_runs)
        results["scale"] = {"levels": scale_levels, "ratios": scale.ratios(scale_levels)}
    if "concurrency" in parts:
        progress(f"concurrency: {args.pods} pods, {args.workers} workers")
        results["concurrency"] = concurrency.measure(binaries, args.pods, args.workers)
    if "collect" in parts:
        progress(f"hnsctl collect over hostile input shapes, {args.collect_runs} runs each")
        results["collect"] = collect_shapes.measure(binaries, args.collect_runs)

    results["sizes"] = {"native": footprint.native_sizes(binaries),
                        "windows": footprint.windows_sizes(args.windows_release)}
    results["machine"]["load_after"] = round(os.getloadavg()[0], 2)
    results["targets"] = targets.check(results)
    results["without_hns"] = targets.without_hns(results)

    text = report.render(results)
    print(text)
    with open(os.path.join(out_dir, "bench.md"), "w") as f:
        f.write(text)
    with open(os.path.join(out_dir, "bench.json"), "w") as f:
        json.dump(results, f, indent=1, ensure_ascii=False)
        f.write("\n")
    if results["latency"] and chart.draw(results, os.path.join(out_dir, "bench.png")):
        progress(f"wrote {os.path.join(out_dir, 'bench.png')}")
    progress(f"wrote {os.path.join(out_dir, 'bench.json')} and bench.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
