#!/usr/bin/env python3
"""The release layout (scripts/release/layout.py) on this Windows build's
binaries, under Wine: the folder has every binary, the examples, INSTALL.md,
a VERSION that every binary's --version agrees with, and SHA256SUMS that
verify and cover every other file; binaries that are not one build (one in
the place of another) lay out nothing.

usage: test_layout.py --build BUILD_DIR --source SOURCE_DIR --strip STRIP"""
import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

failures = []


def check(ok, what):
    print(f'{"ok  " if ok else "FAIL"} {what}', flush=True)
    if not ok:
        failures.append(what)


def layout(build, source, out, strip):
    return subprocess.run([sys.executable, os.path.join(source, 'scripts', 'release', 'layout.py'), '--build', build,
                           '--source', source, '--out', out, '--strip', strip], capture_output=True, text=True,
                          timeout=600)


def sums_verify(folder):
    listed = {}
    with open(os.path.join(folder, 'SHA256SUMS')) as f:
        for line in f:
            digest, path = line.rstrip('\n').split('  ', 1)
            listed[path] = digest
    present = set()
    for root, _, files in os.walk(folder):
        for name in files:
            present.add(os.path.relpath(os.path.join(root, name), folder).replace(os.sep, '/'))
    present.discard('SHA256SUMS')
    if set(listed) != present:
        return f'listed {sorted(set(listed) ^ present)} differ from the files'
    for path, digest in listed.items():
        with open(os.path.join(folder, path), 'rb') as f:
            if hashlib.sha256(f.read()).hexdigest() != digest:
                return f'{path} does not match its sum'
    return ''


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--build', required=True)
    parser.add_argument('--source', required=True)
    parser.add_argument('--strip', required=True)
    args = parser.parse_args()
    out = tempfile.mkdtemp(prefix='wincni-release-')
    try:
        run = layout(args.build, args.source, out, args.strip)
        check(run.returncode == 0, f'layout.py succeeds ({run.stderr.strip()})')
        folder = run.stdout.strip()
        check(os.path.basename(folder).startswith('wincni-') and folder.endswith('-windows-amd64'),
              f'the folder is wincni-<version>-windows-amd64 ({folder})')
        check(sorted(os.listdir(os.path.join(folder, 'bin'))) ==
              ['flannel.exe', 'hnsctl.exe', 'host-local.exe', 'win-bridge.exe', 'win-overlay.exe',
               'wincni-install.exe'],
              'bin/ holds the five binaries and the installer')
        built = os.path.getsize(os.path.join(args.build, 'plugins/flannel/flannel.exe'))
        shipped = os.path.getsize(os.path.join(folder, 'bin', 'flannel.exe'))
        check(shipped < built, f'the binaries are stripped (flannel.exe {built} -> {shipped} bytes)')
        check(sorted(os.listdir(os.path.join(folder, 'conf-examples'))) ==
              sorted(os.listdir(os.path.join(args.source, 'conf-examples'))), 'conf-examples/ is the examples')
        check(os.path.isfile(os.path.join(folder, 'kubernetes', 'wincni-windows.yml')) and
              os.path.isfile(os.path.join(folder, 'kubernetes', 'image', 'Dockerfile')),
              'kubernetes/ holds the manifests and their image folder')
        check(os.path.isfile(os.path.join(folder, 'INSTALL.md')), 'INSTALL.md is there')
        with open(os.path.join(folder, 'VERSION')) as f:
            version = f.read().strip()
        check(version.startswith('wincni ') and ', commit ' in version, f'VERSION names version and commit ({version})')
        problem = sums_verify(folder)
        check(problem == '', f'SHA256SUMS verifies and covers every file {problem}')
        check([name for name in os.listdir(out) if name.startswith('.')] == [], 'no staging folder is left')

        # flannel.exe's place taken by another binary: not one build's layout.
        mixed = tempfile.mkdtemp(prefix='wincni-mixed-build-')
        try:
            for relative in ('plugins/flannel', 'plugins/win-bridge', 'plugins/win-overlay', 'ipam/host-local',
                             'hnsctl', 'installer'):
                os.makedirs(os.path.join(mixed, relative))
            for relative in ('plugins/win-bridge/win-bridge.exe', 'plugins/win-overlay/win-overlay.exe',
                             'ipam/host-local/host-local.exe', 'hnsctl/hnsctl.exe', 'installer/wincni-install.exe'):
                shutil.copy2(os.path.join(args.build, relative), os.path.join(mixed, relative))
            shutil.copy2(os.path.join(args.build, 'ipam/host-local/host-local.exe'),
                         os.path.join(mixed, 'plugins/flannel/flannel.exe'))
            refused_out = os.path.join(out, 'refused')
            refused = layout(mixed, args.source, refused_out, args.strip)
            check(refused.returncode != 0 and 'is host-local, not flannel' in refused.stderr,
                  f'a binary in another\'s place is refused ({refused.stderr.strip()})')
            check(not os.path.exists(refused_out) or os.listdir(refused_out) == [], 'and nothing is laid out')
        finally:
            shutil.rmtree(mixed, ignore_errors=True)
    finally:
        shutil.rmtree(out, ignore_errors=True)
    print(f'{len(failures)} failed')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
