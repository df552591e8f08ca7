"""A directory tree as a set of entries, to see what a run created, removed
or changed. Symbolic links are recorded, never followed: a plugin must not
be able to lead the check astray with one."""

import os
import stat
from dataclasses import dataclass
from typing import Dict, List, Tuple

Entry = Tuple[str, int, int]  # kind ('d', 'f', 'l', '?'), size, mtime_ns


def snapshot(root: str) -> Dict[str, Entry]:
    entries: Dict[str, Entry] = {}
    stack = [""]
    while stack:
        rel = stack.pop()
        try:
            names = os.listdir(os.path.join(root, rel))
        except OSError:
            continue
        for name in names:
            child = os.path.join(rel, name)
            try:
                st = os.lstat(os.path.join(root, child))
            except OSError:
                continue
            if stat.S_ISDIR(st.st_mode):
                entries[child] = ("d", 0, 0)
                stack.append(child)
            elif stat.S_ISREG(st.st_mode):
                entries[child] = ("f", st.st_size, st.st_mtime_ns)
            elif stat.S_ISLNK(st.st_mode):
                entries[child] = ("l", 0, 0)
            else:
                entries[child] = ("?", 0, 0)
    return entries


@dataclass
class TreeDiff:
    created: List[str]
    removed: List[str]
    changed: List[str]  # regular files whose size or mtime moved


def diff(before: Dict[str, Entry], after: Dict[str, Entry]) -> TreeDiff:
    created = sorted(p for p in after if p not in before)
    removed = sorted(p for p in before if p not in after)
    changed = sorted(p for p in after if p in before and after[p][0] == "f" and after[p] != before[p])
    return TreeDiff(created, removed, changed)
