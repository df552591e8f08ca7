#!/usr/bin/env python3
"""The fixture configs in tests/e2e/win-bridge/fixtures are copies of the
project's shared fixture set (tests must only use copies inside the repo).
Where that set is at hand — beside the repository as ../shared, as on CI —
each copy must be byte-identical to its original, so that a fixture fixed or
changed there cannot silently drift from what the tests run. Without it the
test is skipped (exit 77), since there is nothing to compare with.

Usage: fixtures_match_shared.py COPIES_DIR SHARED_CONFIGS_DIR"""

import os
import sys

SKIP = 77


def main() -> int:
    copies, shared = sys.argv[1], sys.argv[2]
    if not os.path.isdir(shared):
        print(f"{shared} is not here: nothing to compare the copies with")
        return SKIP
    names = sorted(name for name in os.listdir(copies) if name.endswith(".conf"))
    if not names:
        print(f"no .conf copies in {copies}")
        return 1
    problems = []
    for name in names:
        original = os.path.join(shared, name)
        if not os.path.isfile(original):
            problems.append(f"{name}: no such file in {shared}")
            continue
        with open(os.path.join(copies, name), "rb") as copy, open(original, "rb") as source:
            if copy.read() != source.read():
                problems.append(f"{name}: differs from {original}")
    for problem in problems:
        print(problem)
    print(f"{len(names) - len(problems)} of {len(names)} copies identical to {shared}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
