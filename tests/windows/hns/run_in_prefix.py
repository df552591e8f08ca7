#!/usr/bin/env python3
"""Runs a Windows program under Wine with the HNS emulator DLLs in the
prefix's system32, where the win32 layer (LoadLibraryExW with
LOAD_LIBRARY_SEARCH_SYSTEM32) looks for computenetwork.dll and vmcompute.dll.

usage: run_in_prefix.py [--install DLL]... [--plant DLL=NAME]... -- PROGRAM [ARGS...]

--install  copies DLL into $WINEPREFIX/drive_c/windows/system32 when the copy
           there differs (atomically: concurrent tests may install at once)
--plant    copies DLL next to PROGRAM under NAME (a DLL outside System32)

WINCNI_EMULATOR_DIR is a fresh directory for the run unless already set.

Wine programs never get a pipe as a standard handle here (run_wine): the
first Wine program of a session starts Wine's own services (winedevice.exe
and co.), which inherit its standard handles and outlive it, so a pipe would
never see EOF and whoever reads it to the end (meson test, subprocess.run)
would wait until its timeout.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile


def same_content(a, b):
    if not os.path.exists(b) or os.path.getsize(a) != os.path.getsize(b):
        return False
    with open(a, 'rb') as fa, open(b, 'rb') as fb:
        return fa.read() == fb.read()


def copy_if_changed(source, target):
    if same_content(source, target):
        return
    directory = os.path.dirname(target)
    fd, temporary = tempfile.mkstemp(dir=directory, prefix='.wincni-install-')
    os.close(fd)
    try:
        shutil.copyfile(source, temporary)
        os.replace(temporary, target)  # a running Wine process keeps the old file
    except BaseException:
        os.unlink(temporary)
        raise


def system32():
    prefix = os.environ.get('WINEPREFIX')
    if not prefix:
        sys.exit('run_in_prefix.py: WINEPREFIX is not set (meson test sets it: tests/windows/meson.build)')
    directory = os.path.join(prefix, 'drive_c', 'windows', 'system32')
    if not os.path.isdir(directory):
        sys.exit(f'run_in_prefix.py: {directory} does not exist; create the prefix first (scripts/wine-env.sh)')
    return directory


def install(dlls):
    target_dir = system32()
    for dll in dlls:
        copy_if_changed(dll, os.path.join(target_dir, os.path.basename(dll)))


def run_wine(command, env, timeout=None):
    """Runs `wine COMMAND...`; returns (exit status, stdout, stderr) as text."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        status = subprocess.call(['wine'] + command, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                 timeout=timeout)
        out.seek(0)
        err.seek(0)
        return status, out.read().decode(errors='replace'), err.read().decode(errors='replace')


def crashed(stderr):
    """What Wine prints when a program of the run dies of an exception
    nobody handled, the program itself or a child it started."""
    return 'wine: Unhandled' in stderr


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--install', action='append', default=[])
    parser.add_argument('--plant', action='append', default=[])
    parser.add_argument('command', nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ['--'] else args.command
    if not command:
        parser.error('no program to run')

    install(args.install)
    for plant in args.plant:
        dll, name = plant.split('=', 1)
        copy_if_changed(dll, os.path.join(os.path.dirname(command[0]), name))

    env = dict(os.environ)
    own_state = None
    if not env.get('WINCNI_EMULATOR_DIR'):
        own_state = tempfile.mkdtemp(prefix='wincni-wine-hns-')
        env['WINCNI_EMULATOR_DIR'] = own_state  # a Unix path: the DLLs reach it through Z:
    try:
        status, out, err = run_wine(command, env)
        sys.stdout.write(out)
        sys.stderr.write(err)
        if status == 0 and crashed(err):
            # Wine's crash handler can leave the exit status 0.
            sys.stderr.write('run_in_prefix.py: the program crashed (see above); failing the run\n')
            return 3
        return status
    finally:
        if own_state:
            shutil.rmtree(own_state, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
