#!/usr/bin/env python3
"""Every public header of a room (<room>/include/**/*.hpp) is named in the
page that describes the room, so that the pages cannot drift behind the
code again (a header added without a word fails this test). Run from meson
with the source root as its argument."""
import os
import sys

# Each room and the page that lists its headers.
PAGES = {
    'os': 'os/README.md',
    'libcni': 'libcni/README.md',
    'hnsclient': 'hnsclient/README.md',
    'hns-emulator': 'hns-emulator/README.md',
    'engine': 'docs/engine.md',
    'ipam/host-local': 'docs/host-local.md',
    'plugins/flannel': 'docs/flannel.md',
    'plugins/win-bridge': 'docs/win-bridge.md',
    'plugins/win-overlay': 'docs/win-overlay.md',
}


def public_headers(root, room):
    include = os.path.join(root, room, 'include')
    for folder, _, names in os.walk(include):
        for name in sorted(names):
            if name.endswith('.hpp'):
                yield os.path.relpath(os.path.join(folder, name), include)


def main():
    root = sys.argv[1]
    missing = []
    for room, page in PAGES.items():
        with open(os.path.join(root, page), encoding='utf-8') as f:
            text = f.read()
        for header in public_headers(root, room):
            if os.path.basename(header) not in text:
                missing.append(f'{room}: {header} is not named in {page}')
    # A room with public headers and no page here is a room nobody describes.
    for folder, dirs, _ in os.walk(root):
        if os.path.basename(folder) in ('build', '.git', 'tests', 'third_party'):
            dirs[:] = []
            continue
        if 'include' in dirs:
            room = os.path.relpath(folder, root)
            if room not in PAGES:
                missing.append(f'{room}: has public headers but no page in tests/docs/headers_named.py')
            dirs.remove('include')
    for line in missing:
        print(line)
    if missing:
        return 1
    print(f'every public header of {len(PAGES)} rooms is named in its page')
    return 0


if __name__ == '__main__':
    sys.exit(main())
