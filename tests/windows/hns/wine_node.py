"""An emulated node under Wine for what the shared e2e suites cannot do from
their scratch folders: hnsctl.exe, one plugin .exe, host-local.exe and the
plugin's delegates on the HNS emulator DLLs, run from a folder on drive C:
so that the Windows default paths resolve in the prefix
(tests/e2e/flannel/wine_flannel_pods.py)."""
import argparse
import json
import os
import shutil
import subprocess
import tempfile

from checks import check, exit_status
from run_in_prefix import install, run_wine


def drive_c():
    return os.path.join(os.environ['WINEPREFIX'], 'drive_c')


def windows_path(path):
    """A folder of the prefix's drive_c is on drive C:; the Linux root is
    drive Z: under Wine."""
    inside = os.path.relpath(path, drive_c())
    if not inside.startswith('..'):
        return 'C:\\' + inside.replace('/', '\\')
    return 'Z:' + path.replace('/', '\\')


def make_scratch(label):
    """A fresh folder on drive C:, as a node's data folders are. Not in /tmp:
    Wine shows a sticky folder as one everybody may delete children of, and
    the plugins refuse a data folder below such a one
    (wincni::os::private_files::require_administrators_only)."""
    root = os.path.join(drive_c(), 'wincni-scratch')
    os.makedirs(root, mode=0o755, exist_ok=True)
    return tempfile.mkdtemp(prefix=f'wincni-wine-{label}-', dir=root)


class Node:
    def __init__(self, plugin, host_local, hnsctl, scratch):
        self.plugin_exe = plugin
        self.plugin_name = os.path.splitext(os.path.basename(plugin))[0]
        self.hnsctl_exe = hnsctl
        self.scratch = scratch
        self.env = dict(os.environ,
                        WINCNI_EMULATOR_DIR=os.path.join(scratch, 'hns'),  # the DLLs reach it through Z:
                        WINCNI_DATA_DIR=windows_path(os.path.join(scratch, 'plugin')),
                        CNI_PATH=windows_path(os.path.dirname(host_local)))
        self.ipam_dir = os.path.join(scratch, 'ipam')
        # The folder plugins run in; its drive is where a path without one
        # (flannel's defaults) resolves. None: this script's.
        self.cwd = None

    def hnsctl(self, *arguments):
        status, out, err = run_wine([self.hnsctl_exe] + list(arguments), self.env, timeout=120)
        if status != 0:
            print(f'hnsctl {" ".join(arguments)}: exit {status}\n{out}{err}', flush=True)
        return status, out

    def plugin(self, command, container, netns, config, **extra):
        """One plugin invocation, the config on stdin (a file: Wine programs
        get no pipes here, see run_in_prefix.py)."""
        env = dict(self.env, CNI_COMMAND=command, CNI_CONTAINERID=container, CNI_IFNAME='eth0', **extra)
        if netns:
            env['CNI_NETNS'] = netns
        with tempfile.TemporaryFile() as stdin, tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            stdin.write(json.dumps(config).encode())
            stdin.seek(0)
            status = subprocess.call(['wine', self.plugin_exe], env=env, stdin=stdin, stdout=out, stderr=err,
                                     timeout=120, cwd=self.cwd)
            out.seek(0)
            text = out.read().decode(errors='replace')
            err.seek(0)
            errors = err.read().decode(errors='replace')
        if status != 0:
            print(f'{self.plugin_name} {command} {container}: exit {status}\n{text}\n{errors}', flush=True)
        return status, text

    def namespace(self):
        return self.hnsctl('namespace', 'create')[1].strip()

    def endpoint(self, name):
        status, shown = self.hnsctl('endpoint', 'show', name)
        return json.loads(shown) if status == 0 else None

    def networks(self):
        status, listed = self.hnsctl('network', 'list', '--json')
        return json.loads(listed) if status == 0 else []

    def held_addresses(self, network):
        """Every entry of host-local's network folder but its lock, its
        round-robin hints and its owner index (docs/host-local.md)."""
        directory = os.path.join(self.ipam_dir, network)
        if not os.path.isdir(directory):
            return []
        return [name for name in os.listdir(directory)
                if name not in ('lock', '.wincni-owners') and not name.startswith('last_reserved_ip.')]

    def clean(self, network, what):
        check(self.hnsctl('audit')[0] == 0, f'{what}: hnsctl.exe audit finds nothing')
        check(self.held_addresses(network) == [], f'{what}: host-local holds no address')


def run_scenarios(plugin_option, scenarios, delegates=()):
    """A script's main(): --PLUGIN_OPTION EXE --host-local EXE --hnsctl EXE
    [--DELEGATE EXE for each of `delegates`] --install DLL..., then each
    scenario on one node in a fresh scratch directory; the exit status of the
    checks. CNI_PATH lists host-local's folder and the delegates', with ';'."""
    parser = argparse.ArgumentParser()
    parser.add_argument(f'--{plugin_option}', required=True, dest='plugin')
    parser.add_argument('--host-local', required=True)
    parser.add_argument('--hnsctl', required=True)
    for delegate in delegates:
        parser.add_argument(f'--{delegate}', required=True)
    parser.add_argument('--install', action='append', default=[])
    args = parser.parse_args()
    install(args.install)
    scratch = make_scratch(plugin_option)
    try:
        node = Node(args.plugin, args.host_local, args.hnsctl, scratch)
        folders = [os.path.dirname(args.host_local)]
        folders += [os.path.dirname(getattr(args, delegate.replace('-', '_'))) for delegate in delegates]
        node.env['CNI_PATH'] = ';'.join(windows_path(folder) for folder in folders)
        for scenario in scenarios:
            scenario(node)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return exit_status()
