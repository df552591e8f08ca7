"""Running one program the way a container runtime runs a plugin: config on
stdin, CNI_* in the environment, output collected. posix_spawn is the
cheapest way there is to start a process, so the time measured is the
program's, not Python's; wait4 gives the CPU time. The peak resident set
and the peak private memory come from a run through tests/bench/peak_rss.c,
since the one wait4 gives Python counts Python's own."""

import os
import tempfile
import time
from dataclasses import dataclass


@dataclass
class Outcome:
    exit_code: int
    wall_seconds: float
    cpu_seconds: float
    out: str
    # The largest resident set of the process and of the children it waited
    # for (Linux reports the maximum, not the sum), in KiB; from run_measuring_rss.
    peak_rss_kib: int = None
    # The largest peak of private (anonymous) memory of any one of those
    # processes, in KiB: the resident set less the executable's shared pages.
    private_kib: int = None
    # What it wrote to stderr (the plugins log there; Wine reports there why
    # it could not start a program).
    err: str = ""

    @property
    def ok(self):
        return self.exit_code == 0


def run(binary, env, stdin_text="", args=()):
    """One run of `binary` with `stdin_text` on its stdin."""
    with tempfile.TemporaryFile() as stdin, tempfile.TemporaryFile() as stdout, tempfile.TemporaryFile() as stderr:
        stdin.write(stdin_text.encode())
        stdin.seek(0)
        start = time.perf_counter()
        pid = os.posix_spawn(binary, [binary, *args], env,
                             file_actions=[(os.POSIX_SPAWN_DUP2, stdin.fileno(), 0),
                                           (os.POSIX_SPAWN_DUP2, stdout.fileno(), 1),
                                           (os.POSIX_SPAWN_DUP2, stderr.fileno(), 2)])
        _, status, usage = os.wait4(pid, 0)
        wall = time.perf_counter() - start
        stdout.seek(0)
        out = stdout.read().decode(errors="replace")
        stderr.seek(0)
        err = stderr.read().decode(errors="replace")
    return Outcome(os.waitstatus_to_exitcode(status), wall, usage.ru_utime + usage.ru_stime, out, err=err)


def run_measuring_rss(launcher, binary, env, stdin_text="", args=()):
    """run() through the peak-rss launcher: its time includes the launcher's
    (which traces every system call), so it is never a timed run."""
    with tempfile.NamedTemporaryFile(mode="r") as figures_file:
        outcome = run(launcher, env, stdin_text, (figures_file.name, binary, *args))
        figures = [int(line) for line in figures_file.read().split()] or [0, 0]
        outcome.peak_rss_kib, outcome.private_kib = figures
    return outcome


def run_ok(binary, env, stdin_text="", args=()):
    """A run that must succeed: setting a node up, not a measurement."""
    outcome = run(binary, env, stdin_text, args)
    if not outcome.ok:
        raise SystemExit(f"{binary} {' '.join(args)} exited {outcome.exit_code}: {outcome.out}")
    return outcome
