"""Each field of each valid config replaced by a value of the wrong kind
(mutations.py), at every level: ADD for every base and every replacement;
the other commands for a seeded sample of replacements (their configs add
prevResult for CHECK and the valid attachments for GC, mutated too)."""

import zlib
from typing import List

from base_configs import Base, for_command
from case import Case
from case_builder import derived_case
from mutations import mutations

# Replacements per field for the commands other than ADD, and for VERSION
# (which reads no config); 0 means all seven.
_PER_PATH = {"ADD": 0, "DEL": 2, "CHECK": 2, "GC": 2, "STATUS": 2, "VERSION": 1}


def _seed(*parts: str) -> int:
    return zlib.crc32("/".join(parts).encode())


def field_cases(bases: List[Base], prev_results: dict, commands=tuple(_PER_PATH)) -> List[Case]:
    cases = []
    for base in bases:
        for command in commands:
            config = for_command(base, command, prev_results.get(base.id))
            for label, data in mutations(config, _seed(base.id, command), _PER_PATH[command]):
                cases.append(derived_case("field", base, command, label, data))
    return cases
