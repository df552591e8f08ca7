#!/usr/bin/env python3
"""flannel.exe under Wine with its default paths, which the shared e2e suite
(flannel-e2e-wine) replaces by its scratch folder's: resolved as Windows
resolves a path without a drive, on the current drive (the plugins run in a
folder on C:, so subnet.env is C:\\run\\flannel\\subnet.env and the saved
configs are in C:\\var\\lib\\cni\\flannel).

  - host-gw: ADD (the pod at .3, the generated policies with the node's
    address), the saved config, CHECK, DEL, a second DEL;
  - STATUS without subnet.env: 50 naming it.
Each time the node ends clean (hnsctl.exe audit), no address held, no saved config.

usage: wine_flannel_pods.py --flannel EXE --win-bridge EXE --host-local EXE --hnsctl EXE
                            --install DLL...
"""
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'windows', 'hns'))
from checks import check  # noqa: E402
from wine_node import run_scenarios, windows_path  # noqa: E402

DRIVE_C = os.path.join(os.environ.get('WINEPREFIX', ''), 'drive_c')
SUBNET_ENV = os.path.join(DRIVE_C, 'run', 'flannel', 'subnet.env')  # C:\run\flannel\subnet.env
SAVED = os.path.join(DRIVE_C, 'var', 'lib', 'cni', 'flannel')       # C:\var\lib\cni\flannel
LEASE = 'FLANNEL_NETWORK=10.244.0.0/16\r\nFLANNEL_SUBNET=10.244.4.1/24\r\nFLANNEL_MTU=1450\r\nFLANNEL_IPMASQ=true\r\n'


def on_drive_c(node):
    """The plugins run in a folder on C:, and flannel's default files start out absent."""
    node.cwd = os.path.join(DRIVE_C, 'wincni-flannel-test')
    os.makedirs(node.cwd, exist_ok=True)
    shutil.rmtree(os.path.dirname(SUBNET_ENV), ignore_errors=True)
    shutil.rmtree(SAVED, ignore_errors=True)


def write_lease():
    os.makedirs(os.path.dirname(SUBNET_ENV), exist_ok=True)
    with open(SUBNET_ENV, 'w', newline='') as lease:
        lease.write(LEASE)


def flannel_config(node, network, delegate):
    return {'cniVersion': '1.0.0', 'name': network, 'type': 'flannel', 'serviceCIDR': '10.96.0.0/12',
            'ipam': {'dataDir': windows_path(node.ipam_dir)}, 'delegate': {'type': delegate}}


def policies(endpoint, kind):
    return [p.get('Settings') for p in (endpoint or {}).get('Policies', []) if p.get('Type') == kind]


def saved_configs():
    return os.listdir(SAVED) if os.path.isdir(SAVED) else []


def status_without_lease(node):
    on_drive_c(node)
    config = dict(flannel_config(node, 'cbr0', 'win-bridge'), cniVersion='1.1.0')
    status, out = node.plugin('STATUS', '', '', config)
    error = json.loads(out) if out.strip() else {}
    check(status != 0 and error.get('code') == 50 and 'C:\\run\\flannel\\subnet.env' in error.get('msg', ''),
          'STATUS without subnet.env: 50 naming C:\\run\\flannel\\subnet.env')


def host_gw(node):
    check(node.hnsctl('node', 'host-gw', '--subnet', '10.244.4.0/24')[0] == 0, 'hnsctl.exe sets up a host-gw node')
    write_lease()
    ns = node.namespace()
    config = flannel_config(node, 'cbr0', 'win-bridge')
    status, out = node.plugin('ADD', 'pod1', ns, config)
    check(status == 0, 'host-gw: ADD through flannel.exe and win-bridge.exe succeeds')
    result = json.loads(out) if status == 0 else {}
    check(result.get('ips', [{}])[0].get('address') == '10.244.4.3/24', 'host-gw: the first pod gets .3')
    check(saved_configs() == ['pod1'], 'host-gw: the delegate config is saved in C:\\var\\lib\\cni\\flannel')
    endpoint = node.endpoint('pod1_cbr0')
    check(policies(endpoint, 'OutBoundNAT') == [{'Exceptions': ['10.244.0.0/16', '10.96.0.0/12', '192.0.2.4/32']}],
          'host-gw: the generated exceptions, with the node\'s address from HNS')
    check(len(policies(endpoint, 'SDNRoute')) == 2, 'host-gw: the service and node encap routes')
    check(node.plugin('CHECK', 'pod1', ns, dict(config, prevResult=result))[0] == 0, 'host-gw: CHECK succeeds')
    check(node.plugin('DEL', 'pod1', ns, config)[0] == 0, 'host-gw: DEL succeeds')
    check(node.plugin('DEL', 'pod1', ns, config)[0] == 0, 'host-gw: a second DEL succeeds')
    check(saved_configs() == [], 'host-gw: no saved config left')
    node.clean('cbr0', 'host-gw')
    shutil.rmtree(os.path.dirname(SUBNET_ENV), ignore_errors=True)


if __name__ == '__main__':
    sys.exit(run_scenarios('flannel', [status_without_lease, host_gw], delegates=('win-bridge',)))
