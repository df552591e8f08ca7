"""One hostile invocation and what surrounds it.

Texts and environment values may hold tokens the worker replaces with its
node's values (@ROOT@ the scratch dir, @NETNS@ the HCN namespace, @BIN@ the
folders of host-local and flannel's delegates), so that the case list itself is fixed and the
same on every machine."""

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

CONTAINER = "hostile-pod1"


@dataclass
class Expect:
    """A regression case's exact answer (on top of the general rules)."""
    ok: bool = False
    code: Optional[int] = None
    msg_contains: str = ""


@dataclass
class Case:
    id: str
    plugin: str          # "host-local", "win-bridge", "win-overlay" or "flannel"
    command: Optional[str]  # CNI_COMMAND; None leaves it unset
    stdin: bytes
    # CNI_* variables and overrides of the node's environment; None unsets.
    env: Dict[str, Optional[str]] = field(default_factory=dict)
    # A valid config ADDed first (so that DEL, CHECK and GC find something)
    # and DELeted after the hostile run, before anything is checked.
    around: Optional[bytes] = None
    around_netns: str = "@NETNS@"
    # Allowed new files (fnmatch globs relative to the scratch root) beyond
    # the locks and hints the plugins keep.
    artifacts: List[str] = field(default_factory=list)
    may_create_network: bool = False
    # After the checks, a valid ADD must still succeed promptly.
    probe: bool = False
    timeout: float = 10.0
    expect: Optional[Expect] = None
    # Taken by every run, not left to the default run's sample.
    always: bool = False
    # Standard descriptors the plugin is started without.
    closed_fds: Tuple[int, ...] = ()
    # stdout a pipe whose reader has gone (the runtime died).
    stdout_reader_gone: bool = False
    # Bytes a file may grow to (RLIMIT_FSIZE, SIGXFSZ ignored): a write past
    # them fails, as on a full disk, for the plugin and what it starts.
    file_size_limit: Optional[int] = None

    @property
    def stdout_seen(self) -> bool:
        return 1 not in self.closed_fds and not self.stdout_reader_gone


def cni_env(command: Optional[str], netns: str = "@NETNS@") -> Dict[str, Optional[str]]:
    """The CNI variables of an ordinary invocation."""
    return {
        "CNI_COMMAND": command,
        "CNI_CONTAINERID": CONTAINER,
        "CNI_NETNS": netns,
        "CNI_IFNAME": "eth0",
        "CNI_PATH": "@BIN@",
    }
