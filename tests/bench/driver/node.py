"""An emulated Windows node in a scratch folder, as the e2e tests make one
(tests/support/emulated_node.hpp): the HNS emulator's state, the plugins'
and host-local's data, and flanneld's subnet.env, all under one folder that
is removed afterwards."""

import os
import shutil
import tempfile

from . import processes

# Where nodes are made (None: the system's temporary folder). bench.py sets
# it: by default to memory (tmpfs), where HNS keeps its state; the emulator
# flushes each change to its files, and on a virtual disk those flushes
# would measure the disk.
_root = None


def place_nodes_in(directory):
    global _root
    _root = directory


def nodes_root():
    return _root


def memory_folder():
    """/dev/shm when it can be written, else None."""
    return "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None


class Node:
    def __init__(self, binaries, label):
        self.binaries = binaries
        self.dir = tempfile.mkdtemp(prefix=f"wincni-bench-{label}-", dir=_root)
        os.makedirs(self.path("hns"))

    def __enter__(self):
        return self

    def __exit__(self, *_):
        shutil.rmtree(self.dir, ignore_errors=True)

    def path(self, *parts):
        return os.path.join(self.dir, *parts)

    @property
    def ipam_dir(self):
        return self.path("ipam")

    @property
    def subnet_file(self):
        return self.path("run", "flannel", "subnet.env")

    def env(self, **variables):
        """The environment every program on this node runs with."""
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"),
               "WINCNI_EMULATOR_DIR": self.path("hns"),
               "WINCNI_DATA_DIR": self.path("plugin"),
               "CNI_PATH": self.binaries.cni_path()}
        # A sanitized build's options (its smoke test turns LeakSanitizer off:
        # it cannot run under peak_rss's ptrace).
        env.update({name: os.environ[name] for name in ("ASAN_OPTIONS", "UBSAN_OPTIONS") if name in os.environ})
        env.update(variables)
        return env

    def hnsctl(self, *args):
        return processes.run_ok(self.binaries.hnsctl, self.env(), args=args).out.strip()

    def host_gw(self, subnet, name="cbr0"):
        """flanneld's host-gw node: L2Bridge `name`, gateway .1, cbr0_ep at .2."""
        self.hnsctl("node", "host-gw", "--subnet", subnet, "--name", name)

    def vxlan(self, subnet, name="flannel.4096"):
        """flanneld's vxlan node: Overlay `name`, VNI 4096."""
        self.hnsctl("node", "vxlan", "--subnet", subnet, "--name", name, "--vni", "4096")

    def create_namespace(self):
        return self.hnsctl("namespace", "create")

    def write_subnet_env(self, network, subnet_gateway, mtu):
        os.makedirs(os.path.dirname(self.subnet_file), exist_ok=True)
        with open(self.subnet_file, "w") as f:
            f.write(f"FLANNEL_NETWORK={network}\nFLANNEL_SUBNET={subnet_gateway}\n"
                    f"FLANNEL_MTU={mtu}\nFLANNEL_IPMASQ=true\n")
