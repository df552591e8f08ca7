#!/usr/bin/env python3
"""The hostile-input suite: host-local, win-bridge, win-overlay and flannel
given bad stdin, bad environments, a bad subnet.env and a misbehaving HNS
must answer with a valid result or a
clean CNI error, never crash or hang, and leave nothing behind
(tests/hostile/README.md).

The parent builds the fixed case list, starts the workers (each in a
private mount namespace whose /var/lib is a scratch dir, so the plugins'
default data dirs stay inside it), and reports what they found."""

import argparse
import json
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # the source tree must not change under us
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import base_configs  # noqa: E402
import cases_env  # noqa: E402
import cases_fields  # noqa: E402
import cases_garbage  # noqa: E402
import cases_hns  # noqa: E402
import cases_regressions  # noqa: E402
import cases_stdin  # noqa: E402
import cases_subnet_env  # noqa: E402
import repo_watch  # noqa: E402
import sandbox  # noqa: E402
import selection  # noqa: E402
from case import CONTAINER, cni_env  # noqa: E402
from node import Node  # noqa: E402
from worker import Worker  # noqa: E402

# Every this many cases, a fresh ADD must succeed after the case.
PROBE_EVERY = 25
# Cases a default run takes (selection.py), and the seed that picks them.
DEFAULT_BUDGET = 1900
SELECTION_SEED = 1


def calibrate(root: str, binaries: dict, bases) -> dict:
    """Each base's ADD result as a 1.1.0 config gets it: the prevResult its
    CHECK cases carry. Every base must ADD and DEL cleanly, or the suite
    itself is wrong."""
    node = Node(root, binaries, varlib_bound=False)
    worker = Worker(node, {})
    results = {}
    for base in bases:
        config = base_configs.text(base_configs.for_command(base, "CHECK"))
        env = cni_env("ADD", base.netns)
        env["CNI_CONTAINERID"] = CONTAINER
        added = worker.run(base.plugin, config, env, 30)
        if added.returncode != 0:
            raise SystemExit(f"calibration: {base.id} ADD failed: {added.stdout!r} {added.stderr!r}")
        results[base.id] = json.loads(added.stdout)
        env["CNI_COMMAND"] = "DEL"
        deleted = worker.run(base.plugin, config, env, 30)
        if deleted.returncode != 0:
            raise SystemExit(f"calibration: {base.id} DEL failed: {deleted.stdout!r}")
        node.reset()
    return results


def build_cases(source_root: str, prev_results: dict):
    wb = base_configs.win_bridge_bases(source_root)
    wo = base_configs.win_overlay_bases(source_root)
    hl = base_configs.host_local_bases(source_root)
    fl = base_configs.flannel_bases(source_root)
    # One config per binary for what does not depend on the config's shape.
    wb_containerd, hl_containerd = wb[0], hl[0]
    wb_dockershim = wb[1]
    wo_containerd, wo_dockershim = wo[0], wo[1]
    cases = []
    cases += cases_stdin.stdin_cases([wb_containerd, hl_containerd], prev_results)
    cases += cases_fields.field_cases(hl, prev_results)
    cases += cases_fields.field_cases(wb, prev_results, commands=("ADD",))
    cases += cases_fields.field_cases([wb_containerd, wb_dockershim], prev_results,
                                      commands=("DEL", "CHECK", "GC", "STATUS", "VERSION"))
    cases += cases_garbage.garbage_cases([wb_containerd, hl_containerd, hl[-1]], prev_results)
    cases += cases_env.env_cases([wb_containerd, hl_containerd], prev_results)
    cases += cases_hns.hns_cases(wb, prev_results)
    # win-overlay: what is its own (its config keys, its network), through
    # the same mutations; the engine's shared paths are covered above.
    cases += cases_stdin.stdin_cases([wo_containerd], prev_results)
    cases += cases_fields.field_cases(wo, prev_results, commands=("ADD",))
    cases += cases_fields.field_cases([wo_containerd, wo_dockershim], prev_results,
                                      commands=("DEL", "CHECK", "GC", "STATUS"))
    cases += cases_env.env_cases([wo_containerd], prev_results)
    cases += cases_hns.hns_cases(wo, prev_results)
    # flannel: its own config keys and subnet.env, and a misbehaving HNS
    # under its delegates.
    cases += cases_stdin.stdin_cases([fl[0]], prev_results)
    cases += cases_fields.field_cases(fl, prev_results, commands=("ADD",))
    cases += cases_fields.field_cases([fl[0]], prev_results, commands=("DEL", "CHECK", "GC", "STATUS"))
    cases += cases_env.env_cases([fl[0]], prev_results)
    cases += cases_hns.hns_cases(fl, prev_results)
    cases += cases_subnet_env.subnet_env_cases(fl, prev_results)
    cases += cases_regressions.regression_cases(wb_containerd, hl_containerd, fl[0], prev_results)
    for index, case in enumerate(cases):
        if index % PROBE_EVERY == 0:
            case.probe = True
    ids = [case.id for case in cases]
    duplicates = {i for i in ids if ids.count(i) > 1} if len(set(ids)) != len(ids) else set()
    if duplicates:
        raise SystemExit(f"duplicate case ids: {sorted(duplicates)[:5]}")
    return cases


def probe_configs(source_root: str) -> dict:
    wb = base_configs.win_bridge_bases(source_root)[0]
    wo = base_configs.win_overlay_bases(source_root)[0]
    hl = base_configs.host_local_bases(source_root)[0]
    fl = base_configs.flannel_bases(source_root)[0]
    return {"win-bridge": base_configs.text(wb.config), "win-overlay": base_configs.text(wo.config),
            "host-local": base_configs.text(hl.config), "flannel": base_configs.text(fl.config)}


def worker_main(args) -> int:
    sandboxed = bool(args.sandboxed)
    root = args.root
    os.makedirs(os.path.join(root, "varlib"), exist_ok=True)
    if sandboxed:
        sandbox.bind_var_lib(os.path.join(root, "varlib"))
    binaries = json.loads(args.binaries)
    with open(args.cases, "rb") as f:
        cases = pickle.load(f)
    node = Node(root, binaries, varlib_bound=sandboxed)
    worker = Worker(node, probe_configs(args.source_root))
    with open(args.report, "w") as report:
        for index, case in enumerate(cases):
            if index % args.workers != args.worker:
                continue
            try:
                result = worker.run_case(case)
            except Exception as error:  # the harness itself failed: report it, go on with a fresh node
                result = {"id": case.id, "problems": [f"harness error: {error!r}"], "exit": None, "seconds": 0,
                          "stdout": ""}
                node.rebuild()
            report.write(json.dumps(result) + "\n")
            report.flush()
    return 0


def summarize(reports, cases, elapsed: float, unsandboxed: bool) -> int:
    by_id = {case.id: case for case in cases}
    failed = [r for r in reports if r["problems"]]
    missing = len(cases) - len(reports)
    for result in failed:
        case = by_id[result["id"]]
        print(f"FAIL {result['id']}")
        for problem in result["problems"]:
            print(f"    {problem}")
        env = {k: (v if v is None or len(v) < 80 else v[:40] + "...") for k, v in case.env.items()}
        print(f"    env: {env}")
        print(f"    stdin: {case.stdin[:300]!r}{'...' if len(case.stdin) > 300 else ''}")
        print(f"    exit {result['exit']}, stdout {result['stdout'][:300]!r}")
    slowest = sorted(reports, key=lambda r: -r["seconds"])[:5]
    print(f"\n{len(reports)} cases run in {elapsed:.1f} s, {len(failed)} failed"
          f"{f', {missing} not run (a worker died)' if missing else ''}"
          f"{' (no private mount namespace: default data dirs were not redirected)' if unsandboxed else ''}")
    print("slowest: " + "; ".join(f"{r['seconds']:.2f} s {r['id'][:80]}" for r in slowest))
    return 1 if failed or missing else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host-local", required=True)
    parser.add_argument("--win-bridge", required=True)
    parser.add_argument("--win-overlay", required=True)
    parser.add_argument("--flannel", required=True)
    parser.add_argument("--hnsctl", required=True)
    parser.add_argument("--source-root", required=True)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", default="", help="run only cases whose id contains this text")
    parser.add_argument("--full", action="store_true", help="every case, not the default's seeded sample")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="how many cases the default run takes")
    parser.add_argument("--list", action="store_true", help="print the case ids and exit")
    # Internal: one worker.
    parser.add_argument("--worker", type=int)
    parser.add_argument("--cases")
    parser.add_argument("--root")
    parser.add_argument("--report")
    parser.add_argument("--binaries")
    parser.add_argument("--sandboxed", type=int, default=0)
    args = parser.parse_args()
    if args.worker is not None:
        return worker_main(args)

    started = time.monotonic()
    binaries = {"host-local": os.path.abspath(args.host_local), "win-bridge": os.path.abspath(args.win_bridge),
                "win-overlay": os.path.abspath(args.win_overlay), "flannel": os.path.abspath(args.flannel),
                "hnsctl": os.path.abspath(args.hnsctl)}
    suite_root = tempfile.mkdtemp(prefix="wincni-hostile-")
    repo_before = repo_watch.snapshot(args.source_root)
    try:
        bases = (base_configs.win_bridge_bases(args.source_root) + base_configs.win_overlay_bases(args.source_root) +
                 base_configs.flannel_bases(args.source_root) + base_configs.host_local_bases(args.source_root))
        prev_results = calibrate(os.path.join(suite_root, "calibrate"), binaries, bases)
        cases = build_cases(args.source_root, prev_results)
        if not args.full:
            cases = selection.sample(cases, args.budget, SELECTION_SEED)
        cases = [c for c in cases if args.only in c.id]
        if args.list:
            for case in cases:
                print(case.id)
            return 0
        cases_file = os.path.join(suite_root, "cases.pickle")
        with open(cases_file, "wb") as f:
            pickle.dump(cases, f)
        prefix = sandbox.command_prefix()
        # Without a mount namespace, configs without dataDir write to the
        # real defaults: what did not exist before the suite goes after it.
        absent_defaults = [] if prefix else [d for d in sandbox.DEFAULT_DIRS if not os.path.exists(d)]
        workers = []
        for k in range(args.workers):
            report = os.path.join(suite_root, f"report-{k}.jsonl")
            argv = prefix + [sys.executable, os.path.abspath(__file__), "--worker", str(k),
                             "--workers", str(args.workers), "--cases", cases_file,
                             "--root", os.path.join(suite_root, f"w{k}"), "--report", report,
                             "--binaries", json.dumps(binaries), "--source-root", args.source_root,
                             "--host-local", binaries["host-local"], "--win-bridge", binaries["win-bridge"],
                             "--win-overlay", binaries["win-overlay"], "--flannel", binaries["flannel"],
                             "--hnsctl", binaries["hnsctl"], "--sandboxed", "1" if prefix else "0"]
            workers.append((subprocess.Popen(argv), report))
        reports = []
        for proc, report in workers:
            if proc.wait() != 0:
                print(f"worker {report} ended with {proc.returncode}")
            if os.path.exists(report):
                with open(report) as f:
                    reports += [json.loads(line) for line in f if line.strip()]
        status = summarize(reports, cases, time.monotonic() - started, not prefix)
        for directory in absent_defaults:
            if os.path.exists(directory):
                print(f"removing {directory}, which the unsandboxed plugins created")
                shutil.rmtree(directory, ignore_errors=True)
        stray = repo_watch.created_since(args.source_root, repo_before)
        if stray:
            print(f"files created in the source tree: {stray}")
            status = 1
        return status
    finally:
        shutil.rmtree(suite_root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
