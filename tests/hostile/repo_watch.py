"""Files the plugins could have created in the source tree (through a
relative path resolved against the wrong directory, say). Others edit the
tree while the suite runs, so only names a plugin or this suite would
create count."""

import os
import re
from typing import List, Set

from artifacts import is_address_name

_ARTIFACT = re.compile(r"^(lock|.*\.lock|last_reserved_ip\..*|state\.json.*|journal|.*\.log|\.wincni-reserving|\.wincni-owners"
                       r"|hostile-.*|hns-rel|plugin-rel|ipam-up|ipam-climb|cbr0|hlnet|l2bridge.*|winl2bridge)$")


def snapshot(root: str) -> Set[str]:
    found = set()
    for directory, subdirs, files in os.walk(root):
        rel_dir = os.path.relpath(directory, root)
        if rel_dir == ".":
            # Build trees and git's own files change under every build.
            subdirs[:] = [d for d in subdirs if d != ".git" and not d.startswith("build")]
        for name in subdirs + files:
            found.add(os.path.normpath(os.path.join(rel_dir, name)))
    return found


def created_since(root: str, before: Set[str]) -> List[str]:
    return sorted(p for p in snapshot(root) - before
                  if _ARTIFACT.match(os.path.basename(p)) or is_address_name(os.path.basename(p)))
