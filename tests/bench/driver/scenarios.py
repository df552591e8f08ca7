"""The five setups the benchmark runs, each on a node prepared as the real
one is: win-bridge and win-overlay with the containerd examples from
conf-examples/, flannel on flanneld's host-gw and vxlan nodes with the
flannel examples, and host-local alone. Each config runs at CNI 1.1.0,
the version that has STATUS and GC."""

import copy
import json
import os
from dataclasses import dataclass
from typing import Callable

REPO = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
CNI_VERSION = "1.1.0"
COMMANDS = ("VERSION", "ADD", "CHECK", "DEL", "STATUS", "GC")


def conf_example(name):
    with open(os.path.join(REPO, "conf-examples", name)) as f:
        return json.load(f)


def flannel_plugin(conflist_name):
    """The flannel entry of a conflist, as the runtime hands it to flannel."""
    conflist = conf_example(conflist_name)
    return dict(conflist["plugins"][0], name=conflist["name"])


@dataclass
class Scenario:
    name: str
    binary: Callable  # Binaries -> path of the program the runtime runs
    prepare: Callable  # Node -> the config (dict), with the node set up for it
    commands: tuple = COMMANDS
    # Whether CNI_NETNS is an HCN namespace (containerd's), or just a path.
    needs_namespace: bool = True

    def label(self):
        """The name as a file name's part and a command-line word."""
        return self.name.replace("→", "-").replace(" ", "-")


def _win_bridge(node):
    node.host_gw("10.244.1.0/24")
    config = conf_example("win-bridge-containerd.conf")
    config["ipam"]["dataDir"] = node.ipam_dir
    return config


def _win_overlay(node):
    node.vxlan("10.244.3.0/24")
    config = conf_example("win-overlay-containerd.conf")
    config["ipam"]["dataDir"] = node.ipam_dir
    return config


def _flannel(conflist_name, setup_network, mtu):
    def prepare(node):
        setup_network(node)
        node.write_subnet_env("10.244.0.0/16", "10.244.4.1/24", mtu)
        return dict(flannel_plugin(conflist_name), subnetFile=node.subnet_file, dataDir=node.path("flannel"),
                    subnetFileWaitSeconds=0, ipam={"dataDir": node.ipam_dir})
    return prepare


def _host_local(node):
    return {"name": "bench", "type": "host-local",
            "ipam": {"type": "host-local", "subnet": "10.128.0.0/16", "dataDir": node.ipam_dir}}


# A scenario again with its delegates started as processes
# ("delegateInProcess": false), as before wincni ran them in process or as
# another build's are: what running them in process saves, in one run.
AS_PROCESSES = " as processes"


def _as_processes(prepare):
    def prepared(node):
        return dict(prepare(node), delegateInProcess=False)
    return prepared


SCENARIOS = [
    Scenario("win-bridge", lambda b: b.win_bridge, _win_bridge),
    Scenario("win-overlay", lambda b: b.win_overlay, _win_overlay),
    Scenario("flannel→win-bridge", lambda b: b.flannel,
             _flannel("flannel-host-gw.conflist", lambda node: node.host_gw("10.244.4.0/24"), 1500)),
    Scenario("flannel→win-overlay", lambda b: b.flannel,
             _flannel("flannel-vxlan.conflist", lambda node: node.vxlan("10.244.4.0/24"), 1450)),
    Scenario("host-local", lambda b: b.host_local, _host_local, needs_namespace=False),
    Scenario("win-bridge" + AS_PROCESSES, lambda b: b.win_bridge, _as_processes(_win_bridge)),
    Scenario("flannel→win-bridge" + AS_PROCESSES, lambda b: b.flannel,
             _as_processes(_flannel("flannel-host-gw.conflist", lambda node: node.host_gw("10.244.4.0/24"), 1500))),
]


def by_name(name):
    for scenario in SCENARIOS:
        if name in (scenario.name, scenario.name.replace("→", "-"), scenario.label()):
            return scenario
    raise SystemExit(f"no scenario {name}; there are {', '.join(s.name for s in SCENARIOS)}")


def at_version(config, version=CNI_VERSION):
    return dict(config, cniVersion=version)


def with_prev_result(config, result):
    """CHECK's config: the ADD result as prevResult."""
    checked = copy.deepcopy(config)
    checked["prevResult"] = json.loads(result)
    return checked


def with_valid_attachments(config, attachments):
    """GC's config: the attachments the runtime still has."""
    collected = copy.deepcopy(config)
    collected["cni.dev/valid-attachments"] = [{"containerID": c, "ifname": "eth0"} for c in attachments]
    return collected
