#!/usr/bin/env python3
"""The emulator's state lock is shared by native and Wine processes: Wine maps
the Windows emulator's LockFileEx onto an fcntl byte-range lock, which the
native emulator's open-file-description lock (os/src/platform/
file_lock_posix.cpp, record family: l_start 0, l_len 0) conflicts with.
Cases 1-3 play the native side with Python's classic fcntl locks, 4-6 with
the native build of the same holder program, i.e. the emulator's own lock.

usage: lock_interop.py WINCNI-HOLD-LOCK.EXE NATIVE-WINCNI-HOLD-LOCK
(WINCNI_NATIVE_BUILD_DIR, when set, names the native build instead)
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
NATIVE_HOLD_LOCK = (os.path.join(os.environ['WINCNI_NATIVE_BUILD_DIR'], 'tests', 'support', 'wincni-hold-lock')
                    if os.environ.get('WINCNI_NATIVE_BUILD_DIR') else sys.argv[2])
# What the holders say on stderr, shown when a check fails. A file, not a
# pipe: see run_in_prefix.py on Wine's services and inherited handles.
holder_errors = tempfile.TemporaryFile()


def start_holder(path, mode, milliseconds, native=False):
    # Wine takes "Z:" paths for Unix ones; the emulator does the mapping itself.
    # stdout is a pipe, but it is only read line by line, never to its end.
    command = [NATIVE_HOLD_LOCK] if native else ['wine', HOLD_LOCK]
    return subprocess.Popen(command + [path, mode, str(milliseconds)],
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
    if not os.access(NATIVE_HOLD_LOCK, os.X_OK):
        print(f'the native wincni-hold-lock is not built: {NATIVE_HOLD_LOCK}\n'
              'build the native configuration first (scripts/build.sh builds build/linux), '
              'or point WINCNI_NATIVE_BUILD_DIR at it')
        return 1
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

    # 4. The native emulator's own lock held exclusively: a wine holder waits
    #    until it ends, and the other way round (5).
    native = start_holder(path, 'exclusive', 2000, native=True)
    check(wait_locked(native), 'native holder took the exclusive lock')
    holder = start_holder(path, 'exclusive', 0)
    check(wait_line(holder, 'waiting'), 'wine process is about to take the lock')
    time.sleep(1.0)
    check(native.poll() is None and holder.poll() is None,
          'wine process still waiting while the native holder holds the lock')
    native.wait()
    check(wait_line(holder, 'locked'), 'wine process got the lock after the native holder ended')
    holder.wait()

    holder = start_holder(path, 'exclusive', 3000)
    check(wait_locked(holder), 'wine process took the exclusive lock')
    native = start_holder(path, 'shared', 0, native=True)
    check(wait_line(native, 'waiting'), 'native holder is about to take a shared lock')
    time.sleep(1.0)
    check(native.poll() is None, 'native shared lock waits while wine holds the lock exclusively')
    holder.wait()
    check(wait_line(native, 'locked'), 'native holder got the lock after wine let go')
    native.wait()
    check(native.returncode == 0 and holder.returncode == 0, 'both holders exited cleanly')

    # 6. Shared beside shared, the native emulator's lock and wine's.
    native = start_holder(path, 'shared', 3000, native=True)
    check(wait_locked(native), 'native holder took a shared lock')
    holder = start_holder(path, 'shared', 0)
    check(wait_locked(holder), 'wine shared lock granted beside the native shared lock')
    holder.wait()
    native.wait()

    os.unlink(path)
    os.rmdir(directory)
    status = exit_status()
    if status:
        holder_errors.seek(0)
        sys.stdout.write(holder_errors.read().decode(errors='replace'))
    return status


if __name__ == '__main__':
    sys.exit(main())
