"""What a plugin may answer, whatever it was given (the project's standard):
exit 0 with a valid result, or a non-zero exit with exactly one JSON object
on stdout holding an integer `code` the docs define and a string `msg`. No
signal death, no hang. Returns the problems found; none means the run is
acceptable."""

import json
from typing import List, Optional

from plugin_run import RunOutcome

# docs/error-codes.md (the CNI spec's 1-11, STATUS's 50 and 51, HNS 100,
# host-local's 110-112, the engine's 120-123). 999 only
# where libcni's delegate.hpp documents it, as Go's libcni: a delegated
# plugin that failed without printing a CNI error ("delegate plugin ...").
DOCUMENTED_CODES = frozenset({1, 2, 3, 4, 5, 6, 7, 11, 50, 51, 100, 110, 111, 112, 120, 121, 122, 123})


class DuplicateKey(ValueError):
    pass


def _no_duplicates(pairs):
    keys = [key for key, _ in pairs]
    if len(keys) != len(set(keys)):
        raise DuplicateKey(f"duplicate key in {keys}")
    return dict(pairs)


def parse_single_object(data: bytes):
    """stdout as one JSON object and nothing else (a trailing newline aside);
    raises ValueError with the reason otherwise."""
    text = data.decode("utf-8")  # strict: stdout must be UTF-8 JSON
    decoder = json.JSONDecoder(object_pairs_hook=_no_duplicates)
    value, end = decoder.raw_decode(text.lstrip())
    if text.lstrip()[end:].strip():
        raise ValueError("text after the JSON object")
    if not isinstance(value, dict):
        raise ValueError(f"a {type(value).__name__}, not an object")
    return value


# What a successful ADD and VERSION print: one object with this member.
_ANSWER_MEMBER = {"ADD": ("cniVersion", str), "VERSION": ("supportedVersions", list)}


def _valid_result(command: str, out: bytes) -> Optional[str]:
    if command in _ANSWER_MEMBER:
        member, kind = _ANSWER_MEMBER[command]
        try:
            answer = parse_single_object(out)
        except ValueError as e:
            return f"{command} succeeded but stdout is not one JSON object: {e}"
        if not isinstance(answer.get(member), kind):
            return f"{command} succeeded but its answer has no {member}"
        return None
    # DEL, CHECK, GC, STATUS print nothing on success; so does a run with no
    # CNI_COMMAND (the skel's about text goes to stderr).
    if out.strip():
        return f"{command or 'no command'} succeeded but printed {out[:200]!r}"
    return None


# An error may quote what it was given, but not grow much beyond it.
ERROR_SLACK = 65536


def judge(command: str, outcome: RunOutcome, input_size: int, allowed_codes=DOCUMENTED_CODES,
          stdout_seen: bool = True) -> List[str]:
    """`input_size`: the bytes of stdin and environment the plugin was given.
    `stdout_seen` is False when the plugin ran with stdout closed or unread:
    then only how it ended can be judged."""
    if outcome.timed_out:
        return [f"did not finish within the deadline ({outcome.seconds:.1f} s)"]
    problems = []
    if outcome.signal:
        problems.append(f"died of signal {outcome.signal}")
    elif not stdout_seen:
        pass
    elif outcome.returncode == 0:
        problem = _valid_result(command, outcome.stdout)
        if problem:
            problems.append(problem)
    else:
        try:
            error = parse_single_object(outcome.stdout)
        except ValueError as e:
            problems.append(f"exit {outcome.returncode}, stdout is not one JSON object ({e}): {outcome.stdout[:300]!r}")
            error = None
        if error is not None:
            code, msg = error.get("code"), error.get("msg")
            if not isinstance(code, int) or isinstance(code, bool):
                problems.append(f"error code is not an integer: {code!r}")
            elif code not in allowed_codes and not (code == 999 and str(msg).startswith("delegate plugin ")):
                problems.append(f"error code {code} is not one the docs define: {msg!r}")
            if not isinstance(msg, str) or not msg:
                problems.append(f"error msg is not a non-empty string: {msg!r}")
            if len(outcome.stdout) > input_size + ERROR_SLACK:
                problems.append(f"an error of {len(outcome.stdout)} bytes for {input_size} bytes of input")
    if outcome.strays:
        problems.append(f"left processes running: {outcome.strays}")
    return problems
