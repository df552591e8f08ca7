"""Every field of a valid config, replaced in turn by a value of the wrong
kind: null, a number, a string, an array, an object, an empty string and a
very long string. Which number and which string is drawn from a fixed list
by a seeded generator, so each run covers the same cases."""

import copy
import json
import random
from typing import Iterator, List, Tuple, Union

PathKey = Union[str, int]

_NUMBERS = [-1, 0, 65536, 2 ** 64, 1.5, 1e300, -9223372036854775809]
_STRINGS = ["x", "10.0.0.1", "0.0.0.0/0", "..", "\u00ff\u0000", "::", "true"]
LONG_STRING = "A" * 65536


def paths(value, prefix: Tuple[PathKey, ...] = ()) -> List[Tuple[PathKey, ...]]:
    """Every member and element, parents before their children."""
    found = []
    if isinstance(value, dict):
        for key, child in value.items():
            found.append(prefix + (key,))
            found.extend(paths(child, prefix + (key,)))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found.append(prefix + (index,))
            found.extend(paths(child, prefix + (index,)))
    return found


def path_text(path: Tuple[PathKey, ...]) -> str:
    text = ""
    for key in path:
        text += f"[{key}]" if isinstance(key, int) else (f".{key}" if text else key)
    return text or "(root)"


def replaced(config, path: Tuple[PathKey, ...], value):
    mutated = copy.deepcopy(config)
    target = mutated
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return mutated


def replacement_values(rng: random.Random) -> List[Tuple[str, object]]:
    return [
        ("null", None),
        ("number", rng.choice(_NUMBERS)),
        ("string", rng.choice(_STRINGS)),
        ("array", [rng.choice(_STRINGS)]),
        ("object", {"x": rng.choice(_NUMBERS)}),
        ("empty string", ""),
        ("long string", LONG_STRING),
    ]


def mutations(config, seed: int, per_path: int = 0) -> Iterator[Tuple[str, bytes]]:
    """(label, config text) for each path and replacement; `per_path` > 0
    keeps that many replacements per path, drawn by the generator."""
    rng = random.Random(seed)
    for path in paths(config):
        values = replacement_values(rng)
        if per_path:
            values = rng.sample(values, per_path)
        for kind, value in values:
            text = json.dumps(replaced(config, path, value), ensure_ascii=False)
            yield f"{path_text(path)} = {kind}", text.encode("utf-8")
