#!/usr/bin/env python3
"""The emulator's state lock is shared by native and Wine processes: Wine maps
the Windows emulator's LockFileEx onto the same fcntl byte-range lock that
the native emulator takes (libcni's file_lock_posix.cpp, record family:
l_start 0, l_len 0).

usage: lock_interop.py WINCNI-HOLD-LOCK.EXE
"""
import fcntl
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, exit_status  # noqa: E402

HOLD_LOCK = sys.argv[1]
# What the holders say on stderr, shown when a check fails. A file, not a
# pipe: see run_in_prefix.py on Wine's services and inherited handles.
holder_errors = tempfile.TemporaryFile()


def start_holder(path, mode, milliseconds):
    # Wine takes "Z:" paths for Unix ones; the emulator does the mapping itself.
    # stdout is a pipe, but it is only read line by line, never to its end.
    return subprocess.Popen(['wine', HOLD_LOCK, path, mode, str(milliseconds)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=holder_errors, text=True)


def wait_line(holder, expected):
    return holder.stdout.readline().strip() == expected


def wait_locked(holder):
    return wait_line(holder, 'waiting') and wait_line(holder, 'locked')


def try_native_lock(path, kind, start=0, length=0):
    """True when a native process may take that fcntl lock right now."""
    with open(path, 'r+') as f:
        try:
            fcntl.lockf(f, kind | fcntl.LOCK_NB, length, start)
        except OSError:
            return False
        fcntl.lockf(f, fcntl.LOCK_UN, length, start)
        return True


def main():
    directory = tempfile.mkdtemp(prefix='wincni-lock-interop-')
    path = os.path.join(directory, 'state.lock')
    open(path, 'w').close()

    # 1. Wine holds the lock exclusively: native readers and writers are
    #    refused, on byte 0 and far beyond the end (the whole file is locked).
    started = time.monotonic()
    holder = start_holder(path, 'exclusive', 3000)
    check(wait_locked(holder), 'wine process took the exclusive lock')
    print(f'      (wine start to lock: {time.monotonic() - started:.2f} s)')
    check(not try_native_lock(path, fcntl.LOCK_EX), 'native exclusive lock refused while wine holds it')
    check(not try_native_lock(path, fcntl.LOCK_SH), 'native shared lock refused while wine holds it')
    check(not try_native_lock(path, fcntl.LOCK_EX, start=1 << 40, length=1),
          'native lock at byte 2^40 refused too (wine locks to the end and beyond)')
    holder.wait()
    check(holder.returncode == 0, 'wine holder exited cleanly')
    check(try_native_lock(path, fcntl.LOCK_EX), 'native exclusive lock granted once wine let go')

    # 2. Native holds it exclusively: the wine process waits until it is released.
    with open(path, 'r+') as f:
        fcntl.lockf(f, fcntl.LOCK_EX)
        holder = start_holder(path, 'exclusive', 0)
        check(wait_line(holder, 'waiting'), 'wine process is about to take the lock')
        time.sleep(1.0)
        check(holder.poll() is None, 'wine process still waiting while native holds the lock')
        released = time.monotonic()
        fcntl.lockf(f, fcntl.LOCK_UN)
    check(wait_line(holder, 'locked'), 'wine process got the lock after native released it')
    print(f'      (release to wine lock: {time.monotonic() - released:.2f} s)')
    holder.wait()

    # 3. Shared with shared: both at once.
    with open(path, 'r+') as f:
        fcntl.lockf(f, fcntl.LOCK_SH)
        holder = start_holder(path, 'shared', 0)
        check(wait_locked(holder), 'wine shared lock granted beside a native shared lock')
        holder.wait()
        fcntl.lockf(f, fcntl.LOCK_UN)

    os.unlink(path)
    os.rmdir(directory)
    status = exit_status()
    if status:
        holder_errors.seek(0)
        sys.stdout.write(holder_errors.read().decode(errors='replace'))
    return status


if __name__ == '__main__':
    sys.exit(main())
