"""flannel pointed at a subnet.env no flanneld writes (subnet_envs.py):
ADD on both backends must fail with a clear error and leave nothing (no
saved delegate config, no address, no endpoint); DEL, CHECK and GC of an
attachment made while the file was good must still work from the saved
config; STATUS must say what is wrong. A subnet.env that is not a file at
all (a FIFO, a device, a link loop) must not block or crash the plugin."""

import copy
from typing import List

import subnet_envs
from base_configs import Base, for_command, text
from case import Case
from case_builder import derived_case

COMMANDS = ("ADD", "DEL", "CHECK", "GC", "STATUS")


def _pointed_at(base: Base, command: str, prev_results: dict, name: str) -> bytes:
    config = copy.deepcopy(for_command(base, command, prev_results.get(base.id)))
    config["subnetFile"] = subnet_envs.path(name)
    return text(config)


def subnet_env_cases(bases: List[Base], prev_results: dict) -> List[Case]:
    """Every hostile file for ADD on each base; the other commands on the
    first base."""
    cases = []
    names = list(subnet_envs.HOSTILE_FILES) + list(subnet_envs.HOSTILE_SPECIAL)
    for base in bases:
        for command in COMMANDS if base is bases[0] else ("ADD",):
            for name in names:
                cases.append(derived_case("subnet-env", base, command, name,
                                          _pointed_at(base, command, prev_results, name),
                                          always=command in ("ADD", "STATUS")))
    return cases
