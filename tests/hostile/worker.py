"""Runs cases on one node, one after the other, and reports each one's
problems: the answer judged by verdict.py, then the cleanup a runtime would
do, then everything leaks.py looks for, then (for some cases) a fresh ADD
that must still succeed promptly."""

import json
import time
from typing import Dict, List, Optional

import leaks
import tree_snapshot
import verdict
from case import Case, cni_env
from node import Node
from plugin_run import RunOutcome, run_plugin

# A fresh ADD (and DEL) after a case must finish within this: a lock the
# case left held, or HNS state it left broken, shows as a wait or a failure.
PROBE_TIMEOUT = 5.0


class Worker:
    def __init__(self, node: Node, probe_configs: Dict[str, bytes]):
        self.node = node
        self.probe_configs = probe_configs  # plugin -> a valid containerd config

    def environment(self, overrides: Dict[str, Optional[str]]) -> Dict[str, str]:
        env = self.node.base_env()
        for key, value in overrides.items():
            if value is None:
                env.pop(key, None)
            else:
                env[key] = self.node.substitute(value.encode("utf-8", "surrogateescape")).decode(
                    "utf-8", "surrogateescape")
        return env

    def run(self, plugin: str, stdin: bytes, overrides: Dict[str, Optional[str]], timeout: float) -> RunOutcome:
        return run_plugin([self.node.binaries[plugin]], self.environment(overrides), self.node.substitute(stdin),
                          self.node.path("cwd"), timeout)

    def _must_succeed(self, what: str, plugin: str, stdin: bytes, overrides, timeout: float) -> List[str]:
        outcome = self.run(plugin, stdin, overrides, timeout)
        if outcome.returncode == 0 and not outcome.strays:
            return []
        return [f"{what} failed (exit {outcome.returncode}, {outcome.seconds:.1f} s): "
                f"{outcome.stdout[:400]!r} {outcome.stderr[-300:]!r}"]

    def probe(self, plugin: str) -> List[str]:
        """A lock left held, or state left broken, shows as an ADD that
        fails or waits."""
        config = self.probe_configs[plugin]
        env = cni_env("ADD")
        env["CNI_CONTAINERID"] = "hostile-probe"
        problems = self._must_succeed("probe ADD after the case", plugin, config, env, PROBE_TIMEOUT)
        env["CNI_COMMAND"] = "DEL"
        problems += self._must_succeed("probe DEL after the case", plugin, config, env, PROBE_TIMEOUT)
        return problems

    def run_case(self, case: Case) -> dict:
        started = time.monotonic()
        problems: List[str] = []
        base_env = cni_env("ADD", case.around_netns)
        if case.around is not None:
            problems += self._must_succeed("setup ADD (a valid config)", case.plugin, case.around, base_env, 10)
        outcome = run_plugin([self.node.binaries[case.plugin]], self.environment(case.env),
                             self.node.substitute(case.stdin), self.node.path("cwd"), case.timeout,
                             case.closed_fds, case.stdout_reader_gone, case.file_size_limit)
        command = case.env.get("CNI_COMMAND") or ""
        given = len(case.stdin) + sum(len(value or "") for value in case.env.values())
        problems += verdict.judge(command, outcome, given, stdout_seen=case.stdout_seen)
        problems += self._expected(case, outcome)
        if command == "ADD" and outcome.returncode == 0:
            # The runtime DELs with the config and environment it ADDed with,
            # retrying until HNS is healthy again: without the case's faults
            # and HNS timeout.
            cleanup = dict(case.env, CNI_COMMAND="DEL")
            cleanup.pop("WINCNI_EMULATOR_FAULTS", None)
            cleanup.pop("WINCNI_HNS_TIMEOUT_MS", None)
            problems += self._must_succeed("DEL after the successful ADD", case.plugin, case.stdin, cleanup, 10)
        if case.around is not None:
            problems += self._must_succeed("teardown DEL (the valid config)", case.plugin, case.around,
                                           dict(base_env, CNI_COMMAND="DEL"), 10)
        tree = tree_snapshot.snapshot(self.node.root)
        problems += leaks.file_problems(self.node, case.artifacts, tree)
        problems += leaks.hns_problems(self.node, case.may_create_network)
        if case.probe:
            problems += self.probe(case.plugin)
            tree = None  # the probe ran since
        self.node.reset(tree)
        return {
            "id": case.id,
            "problems": problems,
            "exit": outcome.returncode,
            "seconds": round(time.monotonic() - started, 3),
            "stdout": outcome.stdout[:600].decode("utf-8", "replace"),
        }

    @staticmethod
    def _expected(case: Case, outcome: RunOutcome) -> List[str]:
        if case.expect is None or outcome.timed_out:
            return []
        expect = case.expect
        if expect.ok:
            return [] if outcome.returncode == 0 else [f"expected success: {outcome.stdout[:300]!r}"]
        if not case.stdout_seen:
            return [] if outcome.returncode not in (0, None) else ["expected a failure"]
        try:
            error = json.loads(outcome.stdout)
        except ValueError:
            return ["expected an error JSON"]
        problems = []
        if outcome.returncode == 0:
            problems.append("expected a failure")
        if expect.code is not None and error.get("code") != expect.code:
            problems.append(f"expected code {expect.code}, got {error.get('code')}: {error.get('msg')!r}")
        if expect.msg_contains and expect.msg_contains not in str(error.get("msg", "")):
            problems.append(f"expected msg containing {expect.msg_contains!r}, got {error.get('msg')!r}")
        return problems
