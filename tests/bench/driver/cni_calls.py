"""One CNI command against a node, as the runtime makes it."""

import json

from . import processes

# The pod each scenario adds first and keeps: what CHECK checks and GC keeps.
KEPT_POD = "kept-pod"


def call(node, binary, command, config, container="", netns="", measure_rss=False, **extra_env):
    """One run; with `measure_rss`, through the peak-rss launcher."""
    variables = {"CNI_COMMAND": command, "CNI_IFNAME": "eth0"}
    if container:
        variables["CNI_CONTAINERID"] = container
    if netns:
        variables["CNI_NETNS"] = netns
    variables.update(extra_env)
    if measure_rss:
        return processes.run_measuring_rss(node.binaries.peak_rss, binary, node.env(**variables), json.dumps(config))
    return processes.run(binary, node.env(**variables), json.dumps(config))


def call_ok(node, binary, command, config, container="", netns="", measure_rss=False, **extra_env):
    outcome = call(node, binary, command, config, container, netns, measure_rss, **extra_env)
    if not outcome.ok:
        raise SystemExit(f"{command} of {container or 'the network'} with {binary} exited "
                         f"{outcome.exit_code}: {outcome.out}\nstderr: {outcome.err[-2000:]}")
    return outcome


def container_for(command, pod):
    """The container a command of a round works on: the round's own `pod` for
    ADD and DEL, the kept pod for CHECK, none for the commands on the network."""
    return {"ADD": pod, "DEL": pod, "CHECK": KEPT_POD}.get(command, "")


def call_in_round(node, binary, command, config, pod, netns, measure_rss=False, **extra_env):
    """call_ok on the container of container_for, in `netns` when there is one."""
    container = container_for(command, pod)
    return call_ok(node, binary, command, config, container, netns if container else "", measure_rss, **extra_env)
