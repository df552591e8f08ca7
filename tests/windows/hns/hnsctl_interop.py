#!/usr/bin/env python3
"""One emulated host seen from both sides: the Windows hnsctl.exe, through
its win32 layer and the emulator DLLs under Wine, sets up a flannel host-gw
node; the Linux hnsctl, on the same WINCNI_EMULATOR_DIR, sees exactly that
(and the other way round). Then the same set-up with a crash injected
between its two steps: the Wine process ends, and Linux sees the first step
done and nothing torn.

usage: hnsctl_interop.py --wine-hnsctl HNSCTL.EXE --linux-build-dir DIR --install DLL...

WINCNI_NATIVE_BUILD_DIR, when set, overrides --linux-build-dir.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, exit_status  # noqa: E402
from run_in_prefix import install, run_wine  # noqa: E402

timings = []


def run(label, command, env, expected_status=0):
    """Runs a Linux program, or a Windows one under Wine when it ends in .exe."""
    started = time.monotonic()
    if command[0].lower().endswith('.exe'):
        status, out, err = run_wine(command, env, timeout=120)
    else:
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
        status, out, err = done.returncode, done.stdout, done.stderr
    timings.append((label, time.monotonic() - started))
    if status != expected_status:
        print(f'{label}: exit {status}\nstdout:\n{out}\nstderr:\n{err}', flush=True)
    check(status == expected_status, f'{label} exits with {expected_status}')
    return out


def parse_array(label, text):
    try:
        value = json.loads(text)
    except ValueError as error:
        check(False, f'{label} prints JSON ({error}): {text!r}')
        return []
    check(isinstance(value, list), f'{label} prints a JSON array')
    return value if isinstance(value, list) else []


def by_name(objects, name):
    found = [o for o in objects if isinstance(o, dict) and o.get('Name') == name]
    return found[0] if len(found) == 1 else None


def key(obj, name):
    """HNS output is read case-insensitively (ID / Id)."""
    for k, v in obj.items():
        if k.lower() == name.lower():
            return v
    return None


def shared_host(wine_hnsctl, linux_hnsctl, env):
    wine = [wine_hnsctl]
    run('wine hnsctl node host-gw', wine + ['node', 'host-gw', '--subnet', '10.244.1.0/24'], env)

    networks = parse_array('wine hnsctl network list --json',
                           run('wine hnsctl network list --json', wine + ['network', 'list', '--json'], env))
    cbr0 = by_name(networks, 'cbr0')
    check(cbr0 is not None, 'wine sees the network cbr0')
    if cbr0:
        check(str(key(cbr0, 'Type')).lower() == 'l2bridge', 'cbr0 is an L2Bridge network')
        subnets = [s for ipam in key(cbr0, 'Ipams') or [] for s in key(ipam, 'Subnets') or []]
        check([key(s, 'IpAddressPrefix') for s in subnets] == ['10.244.1.0/24'], 'cbr0 has the pod subnet')

    native_networks = parse_array('linux hnsctl network list --json',
                                  run('linux hnsctl network list --json',
                                      [linux_hnsctl, 'network', 'list', '--json'], env))
    native_cbr0 = by_name(native_networks, 'cbr0')
    check(native_cbr0 is not None, 'linux sees the network cbr0 that wine created')
    if cbr0 and native_cbr0:
        check(str(key(native_cbr0, 'ID')).upper() == str(key(cbr0, 'ID')).upper(), 'with the same ID')

    endpoints = parse_array('linux hnsctl endpoint list --json',
                            run('linux hnsctl endpoint list --json',
                                [linux_hnsctl, 'endpoint', 'list', '--json'], env))
    ep = by_name(endpoints, 'cbr0_ep')
    check(ep is not None, 'linux sees the endpoint cbr0_ep')
    if ep:
        addresses = [key(c, 'IpAddress') for c in key(ep, 'IpConfigurations') or []]
        check(addresses == ['10.244.1.2'], f'cbr0_ep is at 10.244.1.2 (has {addresses})')
        if native_cbr0:
            check(str(key(ep, 'HostComputeNetwork')).upper() == str(key(native_cbr0, 'ID')).upper(),
                  'cbr0_ep is on cbr0')

    # And back: what a native process creates, the Windows side lists.
    namespace = run('linux hnsctl namespace create', [linux_hnsctl, 'namespace', 'create'], env).strip()
    namespaces = parse_array('wine hnsctl namespace list --json',
                             run('wine hnsctl namespace list --json', wine + ['namespace', 'list', '--json'], env))
    ids = [str(key(n, 'ID')).upper() for n in namespaces if isinstance(n, dict)]
    check(namespace.upper() in ids, f'wine sees the namespace {namespace} that linux created')


def crash_between_steps(wine_hnsctl, linux_hnsctl, env):
    # The emulator's "crash" fault does the call's work, stores it, then ends
    # the process (TerminateProcess under Wine): the network exists, the
    # endpoint never came.
    crashing = dict(env, WINCNI_EMULATOR_FAULTS='CreateNetwork:1:crash')
    run('wine hnsctl node host-gw, crashing after the network', [wine_hnsctl, 'node', 'host-gw', '--subnet',
        '10.244.2.0/24'], crashing, expected_status=86)
    networks = parse_array('linux hnsctl network list --json',
                           run('linux hnsctl network list --json', [linux_hnsctl, 'network', 'list', '--json'], env))
    check(by_name(networks, 'cbr0') is not None, 'linux sees the network created before the crash')
    endpoints = parse_array('linux hnsctl endpoint list --json',
                            run('linux hnsctl endpoint list --json', [linux_hnsctl, 'endpoint', 'list', '--json'], env))
    check(by_name(endpoints, 'cbr0_ep') is None, 'and no endpoint: the crash came first')


def with_state_dir(scenario, wine_hnsctl, linux_hnsctl):
    state = tempfile.mkdtemp(prefix='wincni-hnsctl-interop-')
    try:
        scenario(wine_hnsctl, linux_hnsctl, dict(os.environ, WINCNI_EMULATOR_DIR=state))
    finally:
        shutil.rmtree(state, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--wine-hnsctl', required=True)
    parser.add_argument('--linux-build-dir', required=True)
    parser.add_argument('--install', action='append', default=[])
    args = parser.parse_args()

    build_dir = os.environ.get('WINCNI_NATIVE_BUILD_DIR') or args.linux_build_dir
    linux_hnsctl = os.path.join(build_dir, 'hnsctl', 'hnsctl')
    if not os.access(linux_hnsctl, os.X_OK):
        print(f'the Linux hnsctl is not built: {linux_hnsctl}\n'
              'build the native configuration first (scripts/build.sh builds build/linux), '
              'or point WINCNI_NATIVE_BUILD_DIR at it')
        return 1
    install(args.install)

    with_state_dir(shared_host, args.wine_hnsctl, linux_hnsctl)
    with_state_dir(crash_between_steps, args.wine_hnsctl, linux_hnsctl)

    for label, seconds in timings:
        print(f'time  {seconds:6.2f} s  {label}')
    return exit_status()


if __name__ == '__main__':
    sys.exit(main())
