"""Runs one plugin process the way a runtime would, and sees it end.

Each run gets a process group of its own, so that anything the plugin leaves
running (a delegated host-local it did not wait for, a hung child) is found
afterwards and ended: a plugin must not outlive its answer."""

import os
import resource
import signal
import subprocess
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple


@dataclass
class RunOutcome:
    returncode: Optional[int]  # None when it had to be killed at the deadline
    stdout: bytes
    stderr: bytes
    seconds: float
    timed_out: bool = False
    strays: List[str] = field(default_factory=list)  # processes left running after it ended

    @property
    def signal(self) -> int:
        return -self.returncode if self.returncode is not None and self.returncode < 0 else 0


def _live_members(pgid: int) -> List[str]:
    """Processes of group `pgid` that are not zombies (an orphan's zombie
    waits for a reaper we do not control; it holds nothing)."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return []
    except PermissionError:
        pass
    members = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        # comm may hold spaces and parentheses: the fields follow the last ')'.
        fields = stat[stat.rfind(b")") + 2:].split()
        if len(fields) > 2 and int(fields[2]) == pgid and fields[0] != b"Z":
            members.append(f"{pid} {stat[stat.find(b'(') + 1:stat.rfind(b')')].decode(errors='replace')}")
    return members


def _limits(closed_fds: Tuple[int, ...], file_size_limit: Optional[int]):
    """What the child does between fork and exec; None when nothing."""
    if not closed_fds and file_size_limit is None:
        return None

    def apply():
        for fd in closed_fds:
            os.close(fd)
        if file_size_limit is not None:
            # Ignored, so that the write fails with EFBIG instead of ending
            # the process; the disposition survives exec.
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, file_size_limit))
    return apply


def run_plugin(argv: List[str], env: Dict[str, str], stdin: bytes, cwd: str, timeout: float,
               closed_fds: Tuple[int, ...] = (), stdout_reader_gone: bool = False,
               file_size_limit: Optional[int] = None) -> RunOutcome:
    """`closed_fds`: standard descriptors the plugin starts without (the
    worker is single-threaded, so closing them between fork and exec is safe).
    `stdout_reader_gone`: stdout is a pipe nobody reads any more, as when the
    runtime died (the plugin gets SIGPIPE's default action, as from a runtime).
    `file_size_limit`: writes past that many bytes of a file fail (EFBIG), as
    on a full disk."""
    started = time.monotonic()
    stdout = subprocess.PIPE
    if stdout_reader_gone:
        reader, stdout = os.pipe()
        os.close(reader)
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=stdout, stderr=subprocess.PIPE,
                                env=env, cwd=cwd, start_new_session=True,
                                preexec_fn=_limits(closed_fds, file_size_limit))
    finally:
        if stdout_reader_gone:
            os.close(stdout)
    timed_out = False
    try:
        out, err = proc.communicate(stdin, timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
    out = out or b""
    seconds = time.monotonic() - started
    strays = _live_members(proc.pid)
    if strays:
        # A moment for children that are exiting on their own.
        time.sleep(0.2)
        strays = _live_members(proc.pid)
        if strays:
            os.killpg(proc.pid, signal.SIGKILL)
    return RunOutcome(None if timed_out else proc.returncode, out, err, seconds, timed_out, strays)
