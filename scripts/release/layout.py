#!/usr/bin/env python3
"""Lays out a release folder from a Windows build: the .exe files, the
example configs, the Kubernetes manifests and their image folder,
INSTALL.md, VERSION and SHA256SUMS (scripts/release.sh).

Every binary's --version (run under Wine) must name the same version and
commit, or nothing is laid out: a release is one build.

usage: layout.py --build BUILD_DIR --source SOURCE_DIR --out OUT_DIR [--strip STRIP]
prints the release folder's path. --strip names mingw's strip, run on each
copied binary (meson strips only when installing)."""
import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

BINARIES = {
    'flannel': 'plugins/flannel/flannel.exe',
    'win-bridge': 'plugins/win-bridge/win-bridge.exe',
    'win-overlay': 'plugins/win-overlay/win-overlay.exe',
    'host-local': 'ipam/host-local/host-local.exe',
    'hnsctl': 'hnsctl/hnsctl.exe',
    'wincni-install': 'installer/wincni-install.exe',
}
VERSION_LINE = re.compile(r'^(?P<name>\S+) \(wincni (?P<version>[^,]+), commit (?P<commit>[^)]+)\)$')


def version_of(name, exe):
    """(version, commit) of `exe --version`, run under Wine; its output goes
    through a file, not a pipe (Wine's services would hold a pipe open)."""
    with tempfile.TemporaryFile() as out:
        status = subprocess.call(['wine', exe, '--version'], stdin=subprocess.DEVNULL, stdout=out,
                                 stderr=subprocess.DEVNULL, timeout=120)
        out.seek(0)
        text = out.read().decode(errors='replace').strip()
    if status != 0:
        sys.exit(f'layout.py: {exe} --version exited {status}: {text!r}')
    match = VERSION_LINE.match(text)
    if not match:
        sys.exit(f'layout.py: {exe} --version said {text!r}, not "<name> (wincni <version>, commit <commit>)"')
    if match['name'] != name:
        sys.exit(f'layout.py: {exe} is {match["name"]}, not {name}')
    return match['version'], match['commit']


def one_build(build):
    """(version, commit) that every binary reports."""
    seen = {name: version_of(name, os.path.join(build, path)) for name, path in BINARIES.items()}
    builds = set(seen.values())
    if len(builds) != 1:
        listing = ', '.join(f'{name}: {version} {commit}' for name, (version, commit) in sorted(seen.items()))
        sys.exit(f'layout.py: the binaries are not one build ({listing})')
    return builds.pop()


def checksums(folder):
    lines = []
    for root, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(root, name)
            with open(path, 'rb') as f:
                digest = hashlib.sha256(f.read()).hexdigest()
            lines.append(f'{digest}  {os.path.relpath(path, folder).replace(os.sep, "/")}\n')
    return ''.join(sorted(lines, key=lambda line: line.split('  ', 1)[1]))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--build', required=True)
    parser.add_argument('--source', required=True)
    parser.add_argument('--out', required=True)
    parser.add_argument('--strip')
    args = parser.parse_args()
    version, commit = one_build(args.build)
    name = f'wincni-{version}-windows-amd64'
    os.makedirs(args.out, exist_ok=True)
    # Built beside its final place and renamed into it: an interrupted run
    # leaves no half release under the release's name.
    staging = tempfile.mkdtemp(prefix=f'.{name}-', dir=args.out)
    try:
        os.mkdir(os.path.join(staging, 'bin'))
        for path in BINARIES.values():
            copy = shutil.copy2(os.path.join(args.build, path), os.path.join(staging, 'bin'))
            if args.strip:
                subprocess.run([args.strip, copy], check=True)
        shutil.copytree(os.path.join(args.source, 'conf-examples'), os.path.join(staging, 'conf-examples'))
        shutil.copytree(os.path.join(args.source, 'deploy', 'kubernetes'), os.path.join(staging, 'kubernetes'))
        shutil.copy2(os.path.join(args.source, 'scripts', 'release', 'INSTALL.md'), staging)
        with open(os.path.join(staging, 'VERSION'), 'w', newline='\n') as f:
            f.write(f'wincni {version}, commit {commit}\n')
        sums = checksums(staging)
        with open(os.path.join(staging, 'SHA256SUMS'), 'w', newline='\n') as f:
            f.write(sums)
        final = os.path.join(args.out, name)
        shutil.rmtree(final, ignore_errors=True)
        os.rename(staging, final)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    print(final)


if __name__ == '__main__':
    main()
