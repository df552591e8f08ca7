#!/usr/bin/env python3
"""win-overlay.exe under Wine, on the HNS emulator DLLs: the Windows binaries
end to end on flanneld's vxlan node.

  - containerd: namespace, ADD, CHECK, DEL; the endpoint's MAC from its
    address, the provider address, one OutBoundNAT, a port mapping;
  - dockershim (HNS v1): the pause container and its DEL;
  - a network the config says how to create, by several ADDs at once: one
    Overlay network with VSID 4096.
Each time the node ends clean (hnsctl.exe audit) with no address held.

usage: wine_overlay_pods.py --win-overlay EXE --host-local EXE --hnsctl EXE --install DLL...
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'windows', 'hns'))
from checks import check  # noqa: E402
from wine_node import run_scenarios, simultaneous_first_adds, windows_path  # noqa: E402

NETWORK = 'flannel.4096'


def overlay_config(node, version='1.0.0', api=2):
    config = {
        'cniVersion': version, 'name': NETWORK, 'type': 'win-overlay', 'ipMasq': True,
        'ipMasqNetwork': '10.244.0.0/16',
        'ipam': {'type': 'host-local', 'subnet': '10.244.3.0/24', 'dataDir': windows_path(node.ipam_dir)},
        'policies': [{'name': 'EndpointPolicy',
                      'value': {'Type': 'OutBoundNAT', 'Settings': {'Exceptions': ['10.96.0.0/12']}}}],
    }
    if api:
        config['apiVersion'] = api
    return config


def policies(endpoint, kind):
    return [p.get('Settings') for p in (endpoint or {}).get('Policies', []) if p.get('Type') == kind]


def containerd(node):
    check(node.hnsctl('node', 'vxlan', '--subnet', '10.244.3.0/24', '--name', NETWORK)[0] == 0,
          'hnsctl.exe sets up a vxlan node')
    ns = node.namespace()
    config = overlay_config(node)
    config['runtimeConfig'] = {'portMappings': [{'hostPort': 8080, 'containerPort': 80, 'protocol': 'tcp'}]}
    status, out = node.plugin('ADD', 'pod1', ns, config)
    check(status == 0, 'containerd: ADD succeeds')
    result = json.loads(out) if status == 0 else {}
    ips = result.get('ips', [{}])
    check(ips[0].get('address') == '10.244.3.2/24' and ips[0].get('gateway') == '10.244.3.1',
          'containerd: the pod gets .2 with the overlay subnet\'s .1 as gateway')
    endpoint = node.endpoint(f'pod1_{NETWORK}')
    check((endpoint or {}).get('MacAddress') == '0E-2A-0A-F4-03-02', 'containerd: the MAC is 0E-2A and the address')
    check(policies(endpoint, 'ProviderAddress') == [{'ProviderAddress': '192.0.2.4'}],
          'containerd: the endpoint carries the network\'s provider address')
    check(policies(endpoint, 'OutBoundNAT') == [{'Exceptions': ['10.96.0.0/12', '10.244.0.0/16']}],
          'containerd: one OutBoundNAT with the exceptions merged (ipMasqNetwork covers the node\'s subnet)')
    check(policies(endpoint, 'PortMapping') == [{'Protocol': 6, 'InternalPort': 80, 'ExternalPort': 8080, 'Flags': 1}],
          'containerd: the port mapping, with LocalRoutedVip')
    check(node.plugin('CHECK', 'pod1', ns, dict(config, prevResult=result))[0] == 0, 'containerd: CHECK succeeds')
    check(node.plugin('DEL', 'pod1', ns, config)[0] == 0, 'containerd: DEL succeeds')
    check(node.plugin('DEL', 'pod1', ns, config)[0] == 0, 'containerd: a second DEL succeeds')
    node.hnsctl('namespace', 'delete', ns)
    node.clean(NETWORK, 'containerd')


def dockershim(node):
    config = overlay_config(node, version='0.2.0', api=None)
    status, out = node.plugin('ADD', 'pause1', 'none', config)
    address = json.loads(out).get('ip4', {}).get('ip', '') if status == 0 else ''
    check(address.startswith('10.244.3.') and address.endswith('/24'), 'dockershim: the pause container\'s ADD succeeds')
    check(policies(node.endpoint(f'pause1_{NETWORK}'), 'ProviderAddress') == [{'ProviderAddress': '192.0.2.4'}],
          'dockershim: the v1 endpoint carries the provider address')
    check(node.plugin('DEL', 'pause1', 'none', config)[0] == 0, 'dockershim: the pause container\'s DEL succeeds')
    node.clean(NETWORK, 'dockershim')


def first_adds(node):
    config = dict(overlay_config(node), name='created', master='Ethernet')
    config['ipam'] = dict(config['ipam'], subnet='10.244.9.0/24')
    simultaneous_first_adds(node, config)
    created = [n for n in node.networks() if n.get('Name') == 'created']
    subnet = created[0]['Ipams'][0]['Subnets'][0] if created else {}
    check(created and created[0].get('Type') == 'Overlay', 'the network created is an Overlay network')
    check(subnet.get('Policies') == [{'Type': 'VSID', 'Settings': {'IsolationId': 4096}}],
          'the network created has VSID 4096')


if __name__ == '__main__':
    sys.exit(run_scenarios('win-overlay', [containerd, dockershim, first_adds]))
