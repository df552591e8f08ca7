"""The valid configs every hostile config is derived from: conf-examples/
and the bridge fixtures of tests/e2e/win-bridge, each as win-bridge (or
win-overlay or flannel, for their examples) would get it on the emulated
node (host-local and flannel data in the scratch dir), and the
same texts as host-local gets them (an IPAM plugin reads the whole network
config), plus one host-local config that uses every host-local key."""

import json
import os
from dataclasses import dataclass
from typing import List

import subnet_envs
from case import CONTAINER


@dataclass
class Base:
    id: str
    plugin: str
    config: dict
    netns: str = "@NETNS@"            # "none": dockershim's pause container
    may_create_network: bool = False  # has "master" and an IPAM subnet


IPAM_DIR = "@ROOT@/ipam"

# (file, netns, creates its network). The standalone and Microsoft configs
# name an adapter and a subnet, so their first ADD creates the network; the
# others use flanneld's cbr0 that the node has.
_WIN_BRIDGE_FILES = [
    ("conf-examples/win-bridge-containerd.conf", "@NETNS@", False),
    ("conf-examples/win-bridge-dockershim.conf", "none", False),
    ("conf-examples/win-bridge-standalone.conf", "@NETNS@", True),
    ("conf-examples/win-bridge-dualstack.conf", "@NETNS@", True),
    ("tests/fixtures/configs/legacy-wincni-l2bridge.conf", "@NETNS@", True),
    ("tests/fixtures/configs/ms-l2bridge.conf", "@NETNS@", True),
    ("tests/fixtures/configs/ms-l2bridgedualstack_host-local_ipam.conf", "@NETNS@", True),
    ("tests/fixtures/configs/ref-win-bridge-v1.conf", "none", False),
]

# win-overlay's, on flanneld's vxlan node (flannel.4096, node.py); the
# standalone one creates its own Overlay network.
_WIN_OVERLAY_FILES = [
    ("conf-examples/win-overlay-containerd.conf", "@NETNS@", False),
    ("conf-examples/win-overlay-dockershim.conf", "none", False),
    ("conf-examples/win-overlay-standalone.conf", "@NETNS@", True),
]

# flannel's conflists, each on its backend's node with that node's
# subnet.env (subnet_envs.py): host-gw delegating to win-bridge on cbr0,
# vxlan to win-overlay on flannel.4096.
_FLANNEL_FILES = [
    ("conf-examples/flannel-host-gw.conflist", "host-gw"),
    ("conf-examples/flannel-vxlan.conflist", "vxlan"),
]

_HOST_LOCAL_FILES = [
    "conf-examples/win-bridge-containerd.conf",
    "conf-examples/win-bridge-dualstack.conf",
    "tests/fixtures/configs/ms-l2bridgedualstack_host-local_ipam.conf",
]

# host-local's other keys: requested addresses from all three sources,
# runtime ranges, routes, resolv.conf.
_HOST_LOCAL_EVERY_KEY = {
    "cniVersion": "1.1.0",
    "name": "hlnet",
    "type": "win-bridge",
    "args": {"cni": {"ips": ["10.1.2.16"]}},
    "runtimeConfig": {
        "ips": ["fd00:1::15/120"],
        "ipRanges": [[{"subnet": "fd00:1::/120", "rangeStart": "fd00:1::10", "rangeEnd": "fd00:1::20"}]],
    },
    "ipam": {
        "type": "host-local",
        "dataDir": IPAM_DIR,
        "resolvConf": "@ROOT@/fixtures/resolv.conf",
        "ranges": [[{"subnet": "10.1.2.0/24", "rangeStart": "10.1.2.10", "rangeEnd": "10.1.2.20",
                     "gateway": "10.1.2.1"}]],
        "routes": [{"dst": "0.0.0.0/0"}, {"dst": "192.168.0.0/16", "gw": "10.1.2.254", "mtu": 1400}],
    },
}


def _load(source_root: str, rel: str) -> dict:
    with open(os.path.join(source_root, rel), encoding="utf-8") as f:
        return json.load(f)


def _name(rel: str) -> str:
    return os.path.splitext(os.path.basename(rel))[0]


def _with_scratch_ipam(config: dict) -> dict:
    ipam = config.get("ipam")
    if isinstance(ipam, dict) and ipam.get("type") == "host-local":
        ipam["dataDir"] = IPAM_DIR
    return config


def _engine_bases(plugin: str, files, source_root: str) -> List[Base]:
    bases = []
    for rel, netns, creates in files:
        config = _with_scratch_ipam(_load(source_root, rel))
        # A config whose network is missing would wait 10 s for it: the wait
        # is bounded and tested on its own, not paid by every mutation of "name".
        config["networkWaitSeconds"] = 0
        bases.append(Base(f"{plugin}/{_name(rel)}", plugin, config, netns, creates))
    return bases


def win_bridge_bases(source_root: str) -> List[Base]:
    return _engine_bases("win-bridge", _WIN_BRIDGE_FILES, source_root)


def win_overlay_bases(source_root: str) -> List[Base]:
    return _engine_bases("win-overlay", _WIN_OVERLAY_FILES, source_root)


def flannel_bases(source_root: str) -> List[Base]:
    """The conflists' flannel plugin as a runtime hands it over (the list's
    name and cniVersion injected), with its paths in the scratch dir and no
    waiting: neither for subnet.env nor, in the delegate, for the network
    (both waits are bounded and tested on their own)."""
    bases = []
    for rel, backend in _FLANNEL_FILES:
        conflist = _load(source_root, rel)
        config = dict(conflist["plugins"][0], name=conflist["name"], cniVersion=conflist["cniVersion"])
        config["subnetFile"] = subnet_envs.path(backend)
        config["subnetFileWaitSeconds"] = 0
        config["dataDir"] = "@ROOT@/flannel"
        config["ipam"] = {"dataDir": IPAM_DIR}
        config["delegate"]["networkWaitSeconds"] = 0
        bases.append(Base(f"flannel/{_name(rel)}", "flannel", config))
    return bases


def host_local_bases(source_root: str) -> List[Base]:
    bases = [Base(f"host-local/{_name(rel)}", "host-local", _with_scratch_ipam(_load(source_root, rel)))
             for rel in _HOST_LOCAL_FILES]
    bases.append(Base("host-local/every-key", "host-local", json.loads(json.dumps(_HOST_LOCAL_EVERY_KEY))))
    return bases


def for_command(base: Base, command: str, prev_result=None) -> dict:
    """The base as a runtime sends it for `command`: CHECK, GC and STATUS
    need a 1.1.0 config (the skel gates them by version), CHECK a prevResult,
    GC the attachments that are still valid."""
    config = json.loads(json.dumps(base.config))
    if command in ("CHECK", "GC", "STATUS"):
        config["cniVersion"] = "1.1.0"
    if command == "CHECK" and prev_result is not None:
        config["prevResult"] = prev_result
    if command == "GC":
        config["cni.dev/valid-attachments"] = [{"containerID": CONTAINER, "ifname": "eth0"}]
    return config


def text(config: dict) -> bytes:
    return json.dumps(config).encode()
