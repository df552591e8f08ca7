#!/usr/bin/env python3
"""Prints a deb822 .sources file with deb-src entries for this machine's own
Debian archive, derived from its apt sources at run time (so no archive host is
ever written into the repository).

An entry qualifies when it is a binary ("deb") entry with the "main"
component and a suite of the running Debian release (bookworm, bookworm-updates,
bookworm-security, ...). Prints nothing, and exits 1, when none does.
"""

import glob
import re
import sys


def release_codename(os_release="/etc/os-release"):
    with open(os_release, encoding="utf-8") as f:
        for line in f:
            key, _, value = line.strip().partition("=")
            if key == "VERSION_CODENAME":
                return value.strip('"')
    return ""


def is_release_suite(suite, codename):
    return suite == codename or suite.startswith(codename + "-")


def one_line_entries(path):
    """Entries of a sources.list-style file as dicts like deb822 stanzas."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            options = ""
            m = re.match(r"^(\S+)\s+\[([^\]]*)\]\s+(.*)$", line)
            if m:
                kind, options, rest = m.group(1), m.group(2), m.group(3)
            else:
                kind, _, rest = line.partition(" ")
            words = rest.split()
            if kind != "deb" or len(words) < 3:
                continue
            entry = {"Types": "deb", "URIs": words[0], "Suites": words[1], "Components": " ".join(words[2:])}
            for option in options.split():
                key, _, value = option.partition("=")
                if key == "signed-by":
                    entry["Signed-By"] = value
            yield entry


def deb822_entries(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for stanza in re.split(r"\n\s*\n", text):
        entry, key = {}, None
        for line in stanza.splitlines():
            if line.startswith("#"):
                continue
            if line[:1] in (" ", "\t") and key:
                entry[key] += "\n" + line  # continuation (e.g. an inline key)
                continue
            key, sep, value = line.partition(":")
            if not sep:
                key = None
                continue
            entry[key.strip()] = value.strip()
        if entry.get("Enabled", "yes").lower() == "no":
            continue
        if "deb" in entry.get("Types", "").split():
            yield entry


def all_entries():
    files = ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*.list"))
    for path in files:
        try:
            yield from one_line_entries(path)
        except FileNotFoundError:
            pass
    for path in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
        yield from deb822_entries(path)


def main():
    codename = release_codename()
    if not codename:
        print("derive-deb-src: no VERSION_CODENAME in /etc/os-release", file=sys.stderr)
        return 1
    stanzas = []
    for entry in all_entries():
        suites = [s for s in entry.get("Suites", "").split() if is_release_suite(s, codename)]
        if not suites or "main" not in entry.get("Components", "").split():
            continue
        stanza = ["Types: deb-src", "URIs: " + entry["URIs"], "Suites: " + " ".join(suites), "Components: main"]
        if "Signed-By" in entry:
            stanza.append("Signed-By: " + entry["Signed-By"])
        if stanza not in stanzas:
            stanzas.append(stanza)
    if not stanzas:
        print(f"derive-deb-src: no Debian {codename} 'main' entry in the apt sources", file=sys.stderr)
        return 1
    print("# Written by wincni's third_party build scripts from this machine's apt sources.")
    print("\n\n".join("\n".join(s) for s in stanzas))
    return 0


if __name__ == "__main__":
    sys.exit(main())
