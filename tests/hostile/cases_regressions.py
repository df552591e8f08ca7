"""Exact answers for the bugs this suite found, so that each stays fixed:
one function per bug, named after it, with the bug in its comment. The
general checks (clean answer, no leak, no hang) apply on top."""

import copy
from typing import Callable, List

from base_configs import Base, for_command, text
from case import Case, Expect
from case_builder import derived_case

Add = Callable[..., None]


def _variant(base: Base, command: str, edit) -> bytes:
    config = copy.deepcopy(for_command(base, command))
    edit(config)
    return text(config)


def _ipam(key: str, value):
    def edit(config: dict) -> None:
        config["ipam"][key] = value
    return edit


def hns_version_beyond_16_bits(add: Add, win_bridge: Base, host_local: Base, prev_results: dict) -> None:
    # The emulator took an HNS version it cannot store: every call failed
    # with an internal error (999) instead of refusing the setting (which
    # every call then reports as E_INVALIDARG; through HCN with its text).
    add("an HNS version beyond 16 bits is a clear emulator error", win_bridge, "ADD",
        text(for_command(win_bridge, "ADD")), Expect(code=100, msg_contains="(ERROR_INVALID_PARAMETER 0x80070057)"),
        env={"WINCNI_EMULATOR_HNS_VERSION": "99999.1"})


def host_local_blocks_on_files_that_are_not_regular(add: Add, win_bridge: Base, host_local: Base,
                                                    prev_results: dict) -> None:
    # host-local read a resolvConf that is no regular file until it ended:
    # never for a FIFO without writer or /dev/zero.
    for base in (host_local, win_bridge):
        for where in ("@ROOT@/fixtures/fifo", "/dev/zero"):
            add(f"resolvConf {where} is refused, not read for ever", base, "ADD",
                _variant(base, "ADD", _ipam("resolvConf", where)), Expect(code=5, msg_contains="not a regular file"))
    # It opened its hint and staging files for writing the same way: FIFOs in
    # their place hung it. (Only host-local's own ADD: win-bridge's rollback
    # DEL rightly removes the stale staging file, fixture and all.)
    add("FIFOs in the data dir do not hang host-local", host_local, "ADD",
        _variant(host_local, "ADD", _ipam("dataDir", "@ROOT@/fixtures/trapdir")), Expect(code=5))


def host_local_paths_cut_at_nul(add: Add, win_bridge: Base, host_local: Base, prev_results: dict) -> None:
    # A NUL in dataDir cut the path: host-local created and locked a
    # directory the config does not name; in resolvConf it read another file.
    for base in (host_local, win_bridge):
        for command in ("ADD", "DEL", "STATUS"):
            add("a NUL in ipam.dataDir is refused", base, command,
                _variant(base, command, _ipam("dataDir", "hostile-nul\u0000/x")),
                Expect(code=7, msg_contains="ipam.dataDir: a path cannot contain a NUL character"))
        add("a NUL in ipam.resolvConf is refused", base, "ADD",
            _variant(base, "ADD", _ipam("resolvConf", "@ROOT@/fixtures/resolv.conf\u0000x")),
            Expect(code=7, msg_contains="ipam.resolvConf: a path cannot contain a NUL character"))


def log_file_fifo_blocks(add: Add, win_bridge: Base, host_local: Base, prev_results: dict) -> None:
    # The log file was opened with a blocking open: a FIFO without a reader
    # hung every command, even VERSION.
    for base in (host_local, win_bridge):
        for command in ("ADD", "VERSION"):
            add("a FIFO as log file is not logged to", base, command, text(for_command(base, command)),
                Expect(ok=True), env={"WINCNI_LOG_FILE": "@ROOT@/fixtures/fifo"})


def log_file_path_cut_at_nul(add: Add, win_bridge: Base, host_local: Base, prev_results: dict) -> None:
    # A NUL in logFile cut the path: the plugin logged to tmp/hostile-log
    # (the leak check sees that file) instead of refusing the path.
    for base in (host_local, win_bridge):
        add("a NUL in logFile is not logged to", base, "ADD",
            _variant(base, "ADD", lambda c: c.update(logFile="@ROOT@/tmp/hostile-log\u0000x")), Expect(ok=True))


def delegation_loop(add: Add, win_bridge: Base, host_local: Base, prev_results: dict) -> None:
    # An IPAM type that leads back to win-bridge started win-bridges until
    # the deadline.
    for command in ("ADD", "DEL", "CHECK", "GC", "STATUS"):
        config = for_command(win_bridge, command, prev_results.get(win_bridge.id))
        config["ipam"]["type"] = "win-bridge"
        add("ipam.type win-bridge ends with an error, not a process chain", win_bridge, command, text(config),
            Expect(code=7, msg_contains="would nest plugins more than 4 deep"), env={"CNI_PATH": "@WBBIN@:@BIN@"})


def delegate_output_quoted_whole(add: Add, win_bridge: Base, host_local: Base, prev_results: dict) -> None:
    # A failed IPAM plugin's whole stdout went into the error: 20 MB of it
    # made a 20 MB answer.
    for command in ("ADD", "DEL"):
        add("a flood from a failed IPAM plugin is quoted in part", win_bridge, command,
            text(for_command(win_bridge, command)), Expect(code=999, msg_contains="(20000000 bytes in all)"),
            env={"CNI_PATH": "@ROOT@/fixtures/ipam-floods-its-output"})


def closed_standard_descriptors(add: Add, win_bridge: Base, host_local: Base, prev_results: dict) -> None:
    # Started without stdout and stderr, a plugin's first files took their
    # numbers (libuv's internal pipes), and libuv aborted it at exit — after
    # an ADD had taken its address, which then leaked.
    for base in (host_local, win_bridge):
        for command in ("ADD", "DEL", "VERSION"):
            add("started without stdout and stderr, it finishes", base, command, text(for_command(base, command)),
                Expect(ok=True), closed_fds=(1, 2))


def stdout_reader_gone(add: Add, win_bridge: Base, host_local: Base, prev_results: dict) -> None:
    # With stdout's reader gone (the runtime died), writing the result killed
    # the plugin with SIGPIPE, after an ADD had taken its address: it leaked.
    for base in (host_local, win_bridge):
        for command in ("ADD", "VERSION"):
            add("stdout's reader gone: no SIGPIPE death, the ADD undone", base, command,
                text(for_command(base, command)), Expect(), stdout_reader_gone=True)


def flannel_keeps_the_config_of_a_failed_add(add: Add, flannel: Base) -> None:
    # When the delegate's ADD failed and so did the DEL that undoes it (the
    # same bad CNI_NETNS fails both), flannel kept dataDir/<sandbox>.
    add("a failed ADD whose undoing fails too leaves no saved config", flannel, "ADD",
        text(for_command(flannel, "ADD")), Expect(code=4), env={"CNI_NETNS": "garbage"})


def flannel_relative_data_dir(add: Add, flannel: Base) -> None:
    # A relative dataDir put the pod's saved config in the runtime's working
    # directory.
    add("a relative dataDir is refused", flannel, "ADD",
        _variant(flannel, "ADD", lambda config: config.update(dataDir="0.0.0.0")),
        Expect(code=7, msg_contains="is relative"))


BUGS = [
    hns_version_beyond_16_bits,
    host_local_blocks_on_files_that_are_not_regular,
    host_local_paths_cut_at_nul,
    log_file_fifo_blocks,
    log_file_path_cut_at_nul,
    delegation_loop,
    delegate_output_quoted_whole,
    closed_standard_descriptors,
    stdout_reader_gone,
]

FLANNEL_BUGS = [
    flannel_keeps_the_config_of_a_failed_add,
    flannel_relative_data_dir,
]


def regression_cases(win_bridge: Base, host_local: Base, flannel: Base, prev_results: dict) -> List[Case]:
    cases: List[Case] = []

    def add(name: str, base: Base, command: str, stdin: bytes, expect: Expect, env=None, **fields) -> None:
        cases.append(derived_case("regression", base, command, name, stdin, env, expect=expect, timeout=5.0,
                                  probe=True, **fields))

    for bug in BUGS:
        bug(add, win_bridge, host_local, prev_results)
    for bug in FLANNEL_BUGS:
        bug(add, flannel)
    return cases
