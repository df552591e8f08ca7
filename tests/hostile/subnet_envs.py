"""flanneld's subnet.env as flannel may find it: the valid files of the
node's two backends, and files no flanneld writes (empty, garbage, binary,
10 MB, a directory, a FIFO, a device, a link loop, keys without values,
addresses that cannot be), which flannel must answer with a clear error.
Each worker's node writes them under fixtures/subnet-env (node.py)."""

import os
from typing import Dict

DIR = "fixtures/subnet-env"

# The node's networks (node.py): cbr0 on 10.244.1.0/24, flannel.4096 on
# 10.244.3.0/24.
HOST_GW = b"FLANNEL_NETWORK=10.244.0.0/16\nFLANNEL_SUBNET=10.244.1.1/24\nFLANNEL_MTU=1500\nFLANNEL_IPMASQ=true\n"
VXLAN = b"FLANNEL_NETWORK=10.244.0.0/16\r\nFLANNEL_SUBNET=10.244.3.1/24\r\nFLANNEL_MTU=1450\r\nFLANNEL_IPMASQ=true\r\n"

_BINARY = bytes((i * 73 + 41) % 256 for i in range(4096))

# name -> content, for regular files.
HOSTILE_FILES: Dict[str, bytes] = {
    "empty": b"",
    "whitespace": b" \n\t\r\n \n",
    "comments only": b"# flanneld has not written this yet\n",
    "not key=value": b"hello, flannel\n",
    "binary": _BINARY,
    "NUL in the subnet": HOST_GW.replace(b"10.244.1.1/24", b"10.244.1.1\x00/24"),
    "invalid UTF-8": HOST_GW.replace(b"FLANNEL_MTU=1500", b"FLANNEL_MTU=\xff\xfe"),
    "UTF-16": HOST_GW.decode().encode("utf-16"),
    "UTF-8 BOM": b"\xef\xbb\xbf" + HOST_GW,
    "10 MB of lines": HOST_GW + (b"# " + b"y" * 97 + b"\n") * 100000,
    "10 MB on one line": b"FLANNEL_NETWORK=" + b"1" * (10 << 20),
    "60 KB of networks": b"FLANNEL_NETWORK=" + b",".join(f"10.{i // 256}.{i % 256}.0/24".encode()
                                                          for i in range(4000)) + b"\n" + HOST_GW[30:],
    "key without =": b"FLANNEL_NETWORK\nFLANNEL_SUBNET=10.244.1.1/24\n",
    "no FLANNEL_SUBNET": b"FLANNEL_NETWORK=10.244.0.0/16\nFLANNEL_MTU=1500\n",
    "no FLANNEL_NETWORK": b"FLANNEL_SUBNET=10.244.1.1/24\n",
    "subnet not an address": HOST_GW.replace(b"10.244.1.1/24", b"10.244.1.300/24"),
    "subnet of the other family": HOST_GW.replace(b"FLANNEL_SUBNET=10.244.1.1/24", b"FLANNEL_SUBNET=fd00::1/64"),
    "subnet a /32": HOST_GW.replace(b"10.244.1.1/24", b"10.244.1.1/32"),
    "subnet a /0": HOST_GW.replace(b"10.244.1.1/24", b"0.0.0.0/0"),
    "subnet outside the network": HOST_GW.replace(b"10.244.1.1/24", b"192.0.2.1/24"),
    "network list of commas": HOST_GW.replace(b"10.244.0.0/16", b",,,"),
    "MTU beyond 64 bits": HOST_GW.replace(b"1500", b"99999999999999999999"),
    "MTU negative": HOST_GW.replace(b"1500", b"-1"),
    "IPMASQ maybe": HOST_GW.replace(b"true", b"maybe"),
    "IPv6 only": b"FLANNEL_IPV6_NETWORK=fd00:10:244::/56\nFLANNEL_IPV6_SUBNET=fd00:10:244:1::1/64\nFLANNEL_MTU=1500\n",
    "keys twice, differing": HOST_GW + b"FLANNEL_SUBNET=10.244.9.1/24\n",
}

# name -> what to make instead of a regular file.
HOSTILE_SPECIAL = ("a directory", "a FIFO", "a link loop", "missing", "/dev/zero", "/dev/null")


def path(name: str) -> str:
    """The subnetFile a config names for `name`, with the node's @ROOT@."""
    if name.startswith("/dev/"):
        return name
    return "@ROOT@/" + DIR + "/" + name.replace(" ", "-").replace("/", "_")


def write(root: str) -> None:
    """Creates every fixture below `root` (the node's scratch dir)."""
    def real(name: str) -> str:
        return path(name).replace("@ROOT@", root)

    os.makedirs(os.path.join(root, DIR))
    for name, content in [("host-gw", HOST_GW), ("vxlan", VXLAN), *HOSTILE_FILES.items()]:
        with open(real(name), "wb") as f:
            f.write(content)
    os.mkdir(real("a directory"))
    os.mkfifo(real("a FIFO"))
    os.symlink(real("a link loop"), real("a link loop"))
