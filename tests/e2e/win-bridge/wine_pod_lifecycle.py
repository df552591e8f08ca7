#!/usr/bin/env python3
"""win-bridge.exe under Wine, on the HNS emulator DLLs: the Windows binaries
end to end, with their real win32 layer (HCN and HNSCall through System32),
LockFileEx for network creation, and libuv spawning host-local.exe.

  - containerd: namespace, ADD, CHECK, DEL on a flannel host-gw node;
  - dockershim: the pause container (none), a container joining it, DEL both;
  - a network the config says how to create, by several ADDs at once: one network;
  - what every engine plugin owes its users: HCN port mappings with
    LocalRoutedVip, an orphan of ours holding the pod's address removed, and
    DEL without CNI_NETNS detaching a v1 endpoint's container before deleting it.
Each time the node ends clean (hnsctl.exe audit) with no address held.

usage: wine_pod_lifecycle.py --win-bridge EXE --host-local EXE --hnsctl EXE --install DLL...
"""
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'windows', 'hns'))
from checks import check  # noqa: E402
from wine_node import run_scenarios, simultaneous_first_adds, windows_path  # noqa: E402


def bridge_config(node, version='1.0.0', api=2):
    config = {
        'cniVersion': version, 'name': 'cbr0', 'type': 'win-bridge', 'ipMasqNetwork': '10.244.0.0/16',
        'dns': {'nameservers': ['10.96.0.10']},
        'ipam': {'type': 'host-local', 'subnet': '10.244.1.0/24', 'dataDir': windows_path(node.ipam_dir)},
        'policies': [{'name': 'EndpointPolicy',
                      'value': {'Type': 'OutBoundNAT', 'Settings': {'Exceptions': ['10.96.0.0/12']}}}],
    }
    if api:
        config['apiVersion'] = api
    return config


def containerd(node):
    check(node.hnsctl('node', 'host-gw', '--subnet', '10.244.1.0/24')[0] == 0, 'hnsctl.exe sets up a host-gw node')
    status, ns = node.hnsctl('namespace', 'create')
    ns = ns.strip()
    config = bridge_config(node)
    status, out = node.plugin('ADD', 'pod1', ns, config)
    check(status == 0, 'containerd: ADD succeeds')
    result = json.loads(out) if status == 0 else {}
    ips = result.get('ips', [{}])
    check(ips[0].get('address') == '10.244.1.3/24' and ips[0].get('gateway') == '10.244.1.2',
          'containerd: the pod gets .3 with the bridge endpoint .2 as gateway')
    status, shown = node.hnsctl('endpoint', 'show', 'pod1_cbr0')
    check(status == 0 and ns in shown, 'containerd: the endpoint is attached to the namespace')
    check(node.plugin('CHECK', 'pod1', ns, dict(config, prevResult=result))[0] == 0, 'containerd: CHECK succeeds')
    check(node.plugin('DEL', 'pod1', ns, config)[0] == 0, 'containerd: DEL succeeds')
    check(node.plugin('DEL', 'pod1', ns, config)[0] == 0, 'containerd: a second DEL succeeds')
    node.hnsctl('namespace', 'delete', ns)
    node.clean('cbr0', 'containerd')


def dockershim(node):
    config = bridge_config(node, version='0.2.0', api=None)
    status, out = node.plugin('ADD', 'pause1', 'none', config)
    check(status == 0, 'dockershim: the pause container\'s ADD succeeds')
    status, joined = node.plugin('ADD', 'app1', 'container:pause1', config)
    check(status == 0 and json.loads(joined) == json.loads(out), 'dockershim: a joining container gets the same result')
    check(node.plugin('DEL', 'app1', 'container:pause1', config)[0] == 0, 'dockershim: the container\'s DEL succeeds')
    check(node.plugin('DEL', 'pause1', 'none', config)[0] == 0, 'dockershim: the pause container\'s DEL succeeds')
    node.clean('cbr0', 'dockershim')


def first_adds(node):
    config = dict(bridge_config(node), name='created', master='Ethernet')
    config['ipam'] = dict(config['ipam'], subnet='10.244.9.0/24')
    simultaneous_first_adds(node, config)


def engine_behaviours(node):
    """On the host-gw node containerd() left."""
    config = bridge_config(node)
    config['runtimeConfig'] = {'portMappings': [{'hostPort': 8080, 'containerPort': 80, 'protocol': 'tcp'}]}
    # host-local starts over at .3, as it will again after the "reboot" below.
    shutil.rmtree(os.path.join(node.ipam_dir, 'cbr0'), ignore_errors=True)
    old_ns = node.hnsctl('namespace', 'create')[1].strip()
    status, out = node.plugin('ADD', 'old', old_ns, config)
    check(status == 0, 'port mapping: ADD succeeds')
    old = node.endpoint('old_cbr0') or {}
    mappings = [p.get('Settings') for p in old.get('Policies', []) if p.get('Type') == 'PortMapping']
    check(mappings == [{'Protocol': 6, 'InternalPort': 80, 'ExternalPort': 8080, 'Flags': 1}],
          'port mapping: HCN gets it with LocalRoutedVip')

    # The node rebooted: host-local's store is gone, the endpoint is not.
    shutil.rmtree(os.path.join(node.ipam_dir, 'cbr0'))
    new_ns = node.hnsctl('namespace', 'create')[1].strip()
    status, out = node.plugin('ADD', 'new', new_ns, config)
    check(status == 0 and json.loads(out)['ips'][0]['address'] == '10.244.1.3/24',
          'orphan: the new pod gets the address the orphan held')
    check(node.endpoint('old_cbr0') is None, 'orphan: the orphan of ours is gone')
    node.plugin('DEL', 'new', new_ns, config)
    for ns in (old_ns, new_ns):
        node.hnsctl('namespace', 'delete', ns)
    node.clean('cbr0', 'orphan')

    v1 = bridge_config(node, version='0.2.0', api=None)
    check(node.plugin('ADD', 'pause2', 'none', v1)[0] == 0, 'DEL without CNI_NETNS: the dockershim ADD succeeds')
    journal = os.path.join(node.scratch, 'journal')
    check(node.plugin('DEL', 'pause2', '', v1, WINCNI_EMULATOR_JOURNAL=journal)[0] == 0,
          'DEL without CNI_NETNS succeeds')
    steps = []
    with open(journal, encoding='utf-8') as lines:
        for line in lines:
            entry = json.loads(line)
            request = entry.get('input') if isinstance(entry.get('input'), dict) else {}
            if request.get('Path', '').endswith('/detach'):
                steps.append('detach')
            if entry.get('op') == 'HcnDeleteEndpoint' or request.get('Method') == 'DELETE':
                steps.append('delete')
    check(steps == ['detach', 'delete'], 'DEL without CNI_NETNS detaches the v1 container, then deletes')
    node.clean('cbr0', 'DEL without CNI_NETNS')


if __name__ == '__main__':
    sys.exit(run_scenarios('win-bridge', [containerd, engine_behaviours, dockershim, first_adds]))
