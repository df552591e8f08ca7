"""The names plugins give what they leave on disk: host-local's reservation
files (an address, IPv6 with '_' on Windows) and the files kept for ever by
design (docs/host-local.md "On disk", docs/engine.md "The network"):
locks, round-robin hints and host-local's owner index folder (its bucket
files go with the last reservation they name); and the emulator's fixed staging name for its
state, left when a process ends while one of its timed-out HNS calls is
still writing (the emulator runs inside the plugin; real HNS does not)."""

import ipaddress
import re

KEPT_NAME = re.compile(r"^(lock|network-create\.lock|last_reserved_ip\.\d+|.+\.json\.tmp|commit\.json)$")
KEPT_DIRECTORY_NAME = ".wincni-owners"


def is_address_name(name: str) -> bool:
    for candidate in (name, name.replace("_", ":")):
        try:
            ipaddress.ip_address(candidate)
            return True
        except ValueError:
            pass
    return False
