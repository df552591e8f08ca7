"""Which cases a default run takes: every regression case and every case
marked `always`, and a seeded,
stratified sample of the rest (each category, binary and command keeps its
share, and at least a few), so that the suite stays within its time budget
while every run covers the same cases. --full runs every case."""

import random
from collections import defaultdict
from typing import Dict, List, Tuple

from case import Case

ALWAYS = ("regression",)
MIN_PER_GROUP = 10


def _group(case: Case) -> Tuple[str, str, str]:
    category = case.id.split(" ", 1)[0]
    return category, case.plugin, str(case.env.get("CNI_COMMAND"))


def sample(cases: List[Case], budget: int, seed: int) -> List[Case]:
    groups: Dict[Tuple[str, str, str], List[int]] = defaultdict(list)
    for index, case in enumerate(cases):
        groups[_group(case)].append(index)
    fixed = [i for i, case in enumerate(cases) if case.always or _group(case)[0] in ALWAYS]
    optional = {}
    for key, members in groups.items():
        rest = [i for i in members if not cases[i].always]
        if key[0] not in ALWAYS and rest:
            optional[key] = rest

    def size(fraction: float) -> int:
        return sum(min(len(m), max(MIN_PER_GROUP, round(len(m) * fraction))) for m in optional.values())

    low, high = 0.0, 1.0
    for _ in range(30):
        middle = (low + high) / 2
        if len(fixed) + size(middle) > budget:
            high = middle
        else:
            low = middle
    rng = random.Random(seed)
    chosen = set(fixed)
    for key in sorted(optional):
        members = optional[key]
        chosen.update(rng.sample(members, min(len(members), max(MIN_PER_GROUP, round(len(members) * low)))))
    return [case for index, case in enumerate(cases) if index in chosen]
