"""The environment a runtime (or a confused operator) could give: each CNI_*
variable missing, empty, too long or with control characters, for every
command; CNI_PATH that leads nowhere or to a host-local that cannot run;
CNI_NETNS that is no namespace; and bad WINCNI_* settings (log file, log
levels, the emulator's own settings and fault syntax, the HNS timeout)."""

from typing import Dict, List, Optional

from base_configs import Base, for_command, text
from case import Case
from case_builder import derived_case
from node import BROKEN_IPAM_KINDS, HUNG_IPAM_KIND

COMMANDS = ["ADD", "DEL", "CHECK", "GC", "STATUS", "VERSION"]
CNI_VARIABLES = ["CNI_COMMAND", "CNI_CONTAINERID", "CNI_NETNS", "CNI_IFNAME", "CNI_ARGS", "CNI_PATH"]

# Below Linux's limit for one environment string (128 KiB).
_LONG = "L" * 100000
_VARIANTS: Dict[str, Optional[str]] = {
    "missing": None,
    "empty": "",
    "too long": _LONG,
    "control characters": "pod\n1\t\x01\x1b[31m\x7f",
    "only spaces": "   ",
    "non-UTF-8": "pod\udcff\udcfe",  # surrogateescape: raw bytes 0xff 0xfe
}

_SPECIFIC = {
    "CNI_COMMAND": ["add", "ADD ", " ADD", "VERSION\n", "DELETE", "ADD;DEL"],
    "CNI_CONTAINERID": ["../../etc", "pod/1", "-pod", "pod 1", "a" * 4096, "\u00e9t\u00e9"],
    "CNI_NETNS": ["garbage", "container:", "container:../x", "container:" + "c" * 5000, "none ",
                  "00000000-0000-0000-0000-000000000001", "{@NETNS@}", "/var/run/netns/x", "NONE"],
    "CNI_IFNAME": ["eth0/x", "..", ".", "e" * 16, "eth 0", "eth\u00a00", "eth:0", "\u2028"],
    "CNI_ARGS": ["IP=10.244.1.50", "IP=garbage", "IP=10.244.1.1", "IgnoreUnknown=1;FOO=bar", "FOO=bar", "a",
                 "=;=;;", "IP=10.244.1.50;IP=10.244.1.51", "K8S_POD_NAME=x;K8S_POD_NAMESPACE=" + "n" * 50000,
                 "IgnoreUnknown=maybe;x=y"],
    "CNI_PATH": ["/nonexistent-hostile", "@ROOT@/fixtures/emptybin", "@ROOT@/fixtures/badbin",
                 "@ROOT@/fixtures/badbin:@BIN@", "../fixtures/badbin", "::::", "@ROOT@/fixtures/afile",
                 "@ROOT@/fixtures/fifo"],
}

_WINCNI = {
    "WINCNI_LOG_FILE": ["@ROOT@/nope/wincni.log", "@ROOT@/tmp", "@ROOT@/fixtures/afile/x.log", "/dev/full",
                        "hostile.log", "@ROOT@/fixtures/fifo", ""],
    "WINCNI_LOG_LEVEL": ["loud", "", "DEBUG", "\x01", "debug debug"],
    "WINCNI_LOG_STDERR": ["xyz", "debug", ""],
    "WINCNI_EMULATOR_FAULTS": ["garbage", "CreateEndpoint:0:fail", "CreateEndpoint:1:fail=0x0", ":::",
                               "CreateEndpoint:1:delay=abc", "CreateEndpoint:1:hang=5", ",,,",
                               "CreateEndpoint:99999999999999999999:fail=0x80004005", "x:1:fail=0x80004005," * 5000],
    "WINCNI_EMULATOR_HNS_VERSION": ["abc", "0.0", "99999.1", "9.1", "-1.2", "10.4", ""],
    "WINCNI_EMULATOR_PREFIX_HOST_BITS": ["strict", "refuse", ""],
    "WINCNI_EMULATOR_ERROR_TEXTS": ["Localised", "zh-CN", "localised", ""],
    "WINCNI_EMULATOR_HNS_PICKS": ["Random", "random", ""],
    "WINCNI_EMULATOR_DUPLICATE_CODE": ["0xB7", "0x803b0010", "0x803B0010", ""],
    "WINCNI_EMULATOR_FILTER_KEYS": ["v2", "either", ""],
    "WINCNI_EMULATOR_NAMESPACE_DELETE": ["stale", "leaves-reference", ""],
    "WINCNI_EMULATOR_DEFAULT_NAMESPACE": ["yes", "present", ""],
    "WINCNI_EMULATOR_DIR": ["@ROOT@/nope", "@ROOT@/fixtures/afile", "hns-rel", ""],
    "WINCNI_EMULATOR_JOURNAL": ["@ROOT@/nope/journal", "@ROOT@/tmp", "@ROOT@/fixtures/afile/j"],
    "WINCNI_DATA_DIR": ["@ROOT@/fixtures/afile", "@ROOT@/fixtures/afile/x", "plugin-rel", ""],
    # Not "1": a call that outlives so short a timeout can still create an
    # endpoint after the rollback deleted it (README, "Known limits").
    "WINCNI_HNS_TIMEOUT_MS": ["0", "-5", "abc", "99999999999999999999", "1e3"],
    "WINCNI_DELEGATION_DEPTH": ["abc", "-1", "4", "99999999999999999999"],
    # Not "1" for the timeout, for the reason above (a host-local killed
    # after its write); a budget of 1 ms is spent before any delegate starts.
    "WINCNI_DELEGATE_TIMEOUT_MS": ["0", "-5", "abc"],
    "WINCNI_TIME_BUDGET_MS": ["1", "0", "soon", "99999999999999999999"],
    "HOME": [None],
    "TMPDIR": [None],
    "PATH": [None],
}

# Files some of these cases legitimately create (a log in the working
# directory, an emulator or data dir where the setting points).
_ARTIFACTS = ["cwd/hostile.log", "cwd/hns-rel", "cwd/hns-rel/*", "cwd/plugin-rel", "cwd/plugin-rel/*",
              "nope", "nope/*", "tmp/j*", "varlib/wincni", "varlib/wincni/*"]


def _case(base: Base, command: str, label: str, overrides: Dict[str, Optional[str]], prev_results: dict,
          always: bool = False) -> Case:
    return derived_case("env", base, command, label, text(for_command(base, command, prev_results.get(base.id))),
                        overrides, artifacts=_ARTIFACTS, always=always)


# The IPAM plugin that never answers is killed after this: flannel's
# win-bridge or win-overlay is then given three quarters of it, so it kills
# host-local and answers first, and nothing is left running (run_budget.hpp).
_HUNG_DELEGATE_TIMEOUT_MS = "400"

# Standard descriptors a plugin may be started without.
_CLOSED_FDS = [(0,), (1,), (2,), (1, 2), (0, 1, 2)]

# A full disk, as file sizes no write may pass: nothing written at all; a
# reservation or an index line but not an HNS object; small objects but not
# an endpoint with its policies or the emulator's commit record.
_FULL_DISK_LIMITS = [0, 200, 1000]


def _full_disk_artifacts(base: Base) -> List[str]:
    """A delegate gets SIGXFSZ's default action back (posix_spawn's
    POSIX_SPAWN_SETSIGDEF resets every signal in the child), so under the
    limit host-local dies at the write where a full disk would fail it, like
    a process killed half-way: its STATUS probe stays, and the next DEL
    removes it."""
    return [] if base.plugin == "host-local" else ["ipam/*/.wincni-status-probe"]


def env_cases(bases: List[Base], prev_results: dict) -> List[Case]:
    cases = []
    for base in bases:
        for command in COMMANDS:
            config = text(for_command(base, command, prev_results.get(base.id)))
            for fds in _CLOSED_FDS:
                cases.append(derived_case("env", base, command, f"started with descriptors {fds} closed", config,
                                          closed_fds=fds))
            cases.append(derived_case("env", base, command, "stdout's reader gone", config,
                                      stdout_reader_gone=True))
            for limit in _FULL_DISK_LIMITS:
                cases.append(derived_case("env", base, command, f"a full disk (no file past {limit} bytes)", config,
                                          file_size_limit=limit, artifacts=_full_disk_artifacts(base), always=True))
            if base.plugin != "host-local":
                # CNI_PATH leading to an IPAM plugin that misbehaves (node.py)
                # first, then to the delegates flannel needs.
                for kind in BROKEN_IPAM_KINDS:
                    overrides = {"CNI_PATH": f"@ROOT@/fixtures/ipam-{kind}:@BIN@"}
                    if kind == HUNG_IPAM_KIND:
                        overrides["WINCNI_DELEGATE_TIMEOUT_MS"] = _HUNG_DELEGATE_TIMEOUT_MS
                    # Every hung delegate, not a sample: what the fault matrix asks.
                    cases.append(_case(base, command, f"CNI_PATH to an IPAM plugin that {kind.replace('-', ' ')}",
                                       overrides, prev_results, always=kind == HUNG_IPAM_KIND))
            for variable in CNI_VARIABLES:
                values = dict(_VARIANTS)
                for value in _SPECIFIC[variable]:
                    values[repr(value) if len(value) < 60 else f"{value[:20]!r}... ({len(value)} chars)"] = value
                for label, value in values.items():
                    cases.append(_case(base, command, f"{variable} {label}", {variable: value}, prev_results))
            for variable, values in _WINCNI.items():
                for value in values:
                    shown = repr(value) if value is None or len(value) < 60 else f"{value[:20]!r}... ({len(value)} chars)"
                    cases.append(_case(base, command, f"{variable} {shown}", {variable: value}, prev_results))
    return cases
