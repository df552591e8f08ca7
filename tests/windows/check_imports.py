#!/usr/bin/env python3
"""Checks that every executable of a Windows build imports only DLLs that ship
with Windows, and that a plugin loads no more of them at start than it must. The plugins are copied onto nodes as single .exe files, so they
must not need libstdc++, libgcc, winpthread or libuv DLLs. computenetwork.dll
and vmcompute.dll are deliberately not on the list: the win32 layer loads them
from System32 at run time, and an import would be resolved through the DLL
search order, which starts with the executable's own directory.

usage: check_imports.py <build-root> <objdump>
"""

import json
import os
import subprocess
import sys

SYSTEM_DLLS = {
    "advapi32.dll", "bcrypt.dll", "crypt32.dll", "dbghelp.dll", "dnsapi.dll",
    "gdi32.dll", "iphlpapi.dll", "kernel32.dll", "msvcrt.dll", "mswsock.dll",
    "netapi32.dll", "ntdll.dll", "ole32.dll", "oleaut32.dll", "psapi.dll",
    "rpcrt4.dll", "secur32.dll", "shell32.dll", "shlwapi.dll", "ucrtbase.dll",
    "user32.dll", "userenv.dll", "version.dll", "ws2_32.dll",
}


# What a plugin may load at start. The DLLs it needs only to start a
# delegate or to call HNS are delay-loaded (third_party/delay-imports); one
# of them imported here again would load, with what it loads in turn, at
# every start of every plugin, VERSION included. shell32 (CommandLineToArgvW)
# is here for the test build, whose unity objects keep it beside code the
# plugins use; the release's plugins import kernel32, advapi32 and msvcrt.
PLUGINS = {"win-bridge.exe", "win-overlay.exe", "flannel.exe", "host-local.exe"}
PLUGIN_START_DLLS = {"kernel32.dll", "advapi32.dll", "msvcrt.dll", "shell32.dll"}


def is_system_dll(name):
    name = name.lower()
    return name in SYSTEM_DLLS or name.startswith("api-ms-win-")


def built_executables(build_root):
    with open(os.path.join(build_root, "meson-info", "intro-targets.json"), encoding="utf-8") as f:
        targets = json.load(f)
    for target in targets:
        if target["type"] == "executable":
            yield from (name for name in target["filename"] if name.lower().endswith(".exe"))


def imported_dlls(objdump, path):
    out = subprocess.run([objdump, "-p", path], check=True, capture_output=True, text=True).stdout
    return [line.split(":", 1)[1].strip() for line in out.splitlines() if line.strip().startswith("DLL Name:")]


def main(build_root, objdump):
    executables = sorted(built_executables(build_root))
    if not executables:
        print("check_imports: this build has no executables", file=sys.stderr)
        return 1
    failures = 0
    for exe in executables:
        if not os.path.isfile(exe):
            print(f"MISSING {exe}")
            failures += 1
            continue
        dlls = imported_dlls(objdump, exe)
        foreign = [dll for dll in dlls if not is_system_dll(dll)]
        rel = os.path.relpath(exe, build_root)
        at_start = [dll for dll in dlls if dll.lower() not in PLUGIN_START_DLLS]
        if foreign:
            print(f"FAIL    {rel}: imports {', '.join(foreign)}")
            failures += 1
        elif os.path.basename(exe).lower() in PLUGINS and at_start:
            print(f"FAIL    {rel}: loads {', '.join(at_start)} at every start (not delay-loaded)")
            failures += 1
        elif not dlls:
            print(f"FAIL    {rel}: objdump found no imports at all")
            failures += 1
        else:
            print(f"ok      {rel}: {', '.join(sorted(dlls, key=str.lower))}")
    print(f"check_imports: {len(executables) - failures} of {len(executables)} executables import system DLLs only")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
