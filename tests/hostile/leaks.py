"""What a run may leave behind, checked after it (and after the cleanup DEL
of a successful ADD): no address reservation, no lock held, no HNS object
that was not there before, and no file created, removed or changed outside
what the plugins are documented to keep."""

import fcntl
import fnmatch
import os
from typing import Dict, Iterable, List, Optional

import tree_snapshot
from artifacts import KEPT_DIRECTORY_NAME, KEPT_NAME, is_address_name
from node import DATA_AREAS, Node


def _in_data_area(rel: str) -> bool:
    return rel.split(os.sep, 1)[0] in DATA_AREAS


def _probe_lock(path: str) -> str:
    """'' when both kinds of lock on `path` can be taken at once (flock:
    host-local and the network-creation lock; fcntl: the emulator's store)."""
    try:
        fd = os.open(path, os.O_RDWR)
    except OSError:
        return ""
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            fcntl.flock(fd, fcntl.LOCK_UN)
        except BlockingIOError:
            return f"{path} is still flock()ed"
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            fcntl.lockf(fd, fcntl.LOCK_UN)
        except (BlockingIOError, PermissionError):
            return f"{path} still holds an fcntl lock"
        return ""
    finally:
        os.close(fd)


def file_problems(node: Node, artifacts: Iterable[str], now: Dict[str, tree_snapshot.Entry]) -> List[str]:
    """Reservations, held locks and stray files anywhere in the scratch tree
    (`now`: its snapshot after the case)."""
    problems = []
    delta = tree_snapshot.diff(node.baseline_tree, now)
    allowed_globs = list(artifacts)
    kept_dirs = set()
    for rel, (kind, _, _) in now.items():
        name = os.path.basename(rel)
        if kind == "f" and is_address_name(name):
            problems.append(f"address reservation left: {rel}")
        if kind == "f" and (name == "lock" or name.endswith(".lock")):
            held = _probe_lock(os.path.join(node.root, rel))
            if held:
                problems.append(held)
    for rel in delta.created:
        kind = now[rel][0]
        name = os.path.basename(rel)
        if any(fnmatch.fnmatch(rel, pattern) for pattern in allowed_globs):
            continue
        if (kind == "f" and KEPT_NAME.match(name)) or (kind == "d" and name == KEPT_DIRECTORY_NAME):
            # The kept folder itself, or a kept file's folder, and every one above.
            parent = rel if kind == "d" else os.path.dirname(rel)
            while parent:
                kept_dirs.add(parent)
                parent = os.path.dirname(parent)
            continue
        if kind == "f" and is_address_name(name):
            continue  # already reported
        if kind == "d":
            continue  # judged below, once every kept file is known
        if rel.split(os.sep, 1)[0] == "hns":
            continue  # the emulator's store: hns_problems judges its objects
        problems.append(f"created {rel}")
    for rel in delta.created:
        if now[rel][0] == "d" and rel not in kept_dirs and not _in_data_area(rel) and not any(
                fnmatch.fnmatch(rel, pattern) for pattern in allowed_globs):
            problems.append(f"created directory {rel}")
    for rel in delta.removed:
        problems.append(f"removed {rel}")
    for rel in delta.changed:
        if not _in_data_area(rel):
            problems.append(f"changed {rel}")
    return problems


def _by_id(objects: list, wrapper: str) -> dict:
    return {item[wrapper]["ID"]: item for item in objects}


# The host's own namespace (compartment 1). Under
# WINCNI_EMULATOR_DEFAULT_NAMESPACE=present the emulator stores it at the
# first changing call, where a real host has always had it: not the case's.
_HOST_DEFAULT_NAMESPACE_ID = "D3FA017E-0000-4000-8000-000000000001"


def _without_host_default(namespaces: Optional[list], base: dict) -> Optional[list]:
    if namespaces is None or namespaces == base.get("Namespaces"):
        return namespaces
    return [ns for ns in namespaces
            if ns in base.get("Namespaces", []) or str(ns.get("ID", "")).upper() != _HOST_DEFAULT_NAMESPACE_ID]


def hns_problems(node: Node, may_create_network: bool) -> List[str]:
    """HNS objects the case created and did not remove. `hnsctl audit` runs
    whenever the state moved: an unchanged state is the clean baseline."""
    state = node.hns_state()
    if state is None:
        return ["the emulator's state file is unreadable"]
    if state == node.baseline_hns:
        return []
    problems = []
    base = node.baseline_hns
    if state.get("Endpoints") != base.get("Endpoints"):
        before = _by_id(base.get("Endpoints", []), "Endpoint")
        after = _by_id(state.get("Endpoints", []), "Endpoint")
        base_networks = {item["Network"]["ID"] for item in base.get("Networks", [])}
        for eid, item in after.items():
            # A network the ADD created stays, with the host's endpoint on it
            # (what flanneld's cbr0_ep is to cbr0): node infrastructure.
            host_endpoint_of_new_network = (may_create_network and item.get("HostAttached")
                                            and item["Endpoint"].get("HostComputeNetwork") not in base_networks)
            if eid not in before:
                if not host_endpoint_of_new_network:
                    problems.append(f"endpoint left: {item['Endpoint'].get('Name')} ({eid})")
            elif item != before[eid]:
                problems.append(f"endpoint changed: {item['Endpoint'].get('Name')}")
        for eid, item in before.items():
            if eid not in after:
                problems.append(f"endpoint removed: {item['Endpoint'].get('Name')}")
    if _without_host_default(state.get("Namespaces"), base) != base.get("Namespaces"):
        problems.append("namespaces changed")
    before_nets = _by_id(base.get("Networks", []), "Network")
    after_nets = _by_id(state.get("Networks", []), "Network")
    for nid, item in before_nets.items():
        if after_nets.get(nid) != item:
            problems.append(f"network {item['Network'].get('Name')} changed or removed")
    for nid, item in after_nets.items():
        if nid not in before_nets and not may_create_network:
            problems.append(f"network created by a config that cannot create one: {item['Network'].get('Name')}")
    for key in set(state) | set(base):
        if key not in ("Endpoints", "Namespaces", "Networks", "NextCompartment") and state.get(key) != base.get(key):
            problems.append(f"emulator state {key} changed")
    audit = node.hnsctl("audit")
    if audit.returncode != 0:
        problems.append(f"hnsctl audit: {audit.stdout.strip()} {audit.stderr.strip()}")
    return problems
