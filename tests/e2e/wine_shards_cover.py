#!/usr/bin/env python3
"""A suite split into parts for Wine ('wine_shards' in tests/meson.build)
must still run every case, and each once: lists the cases of the whole
suite and of each part (doctest --list-test-cases, on the native build of
the same program, whose cases and source files are the Windows build's)
and fails naming any case no part runs or two parts run.

usage: wine_shards_cover.py PROGRAM --whole ARG... [--part ARG...]..."""

import collections
import subprocess
import sys


def cases(program, args):
    out = subprocess.run([program, "--list-test-cases", *args], capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    separators = [i for i, line in enumerate(lines) if line.startswith("=====")]
    # "[doctest] listing all test case names", a rule, the names, a rule.
    if len(separators) < 2:
        raise SystemExit(f"cannot read the case list of {program} {args}:\n{out}")
    return lines[separators[0] + 1:separators[1]]


def main(argv):
    program, rest = argv[1], argv[2:]
    groups, current = [], None
    for arg in rest:
        if arg in ("--whole", "--part"):
            current = []
            groups.append((arg, current))
        else:
            current.append(arg)
    whole = [args for kind, args in groups if kind == "--whole"][0]
    parts = [args for kind, args in groups if kind == "--part"]
    expected = cases(program, whole)
    counted = collections.Counter()
    for part in parts:
        found = cases(program, whole + part)
        print(f"{len(found):4} cases: {' '.join(part)}")
        counted.update(found)
    missing = [name for name in expected if counted[name] == 0]
    twice = [name for name, count in counted.items() if count > 1]
    print(f"{len(expected):4} cases in the whole suite")
    for name in missing:
        print(f"no part runs: {name}")
    for name in twice:
        print(f"more than one part runs: {name}")
    return 1 if missing or twice or not expected else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
