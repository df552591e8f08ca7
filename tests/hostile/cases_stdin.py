"""stdin that is not a config: empty, not JSON, truncated, of the wrong JSON
type, huge, nested deeper than any parser's stack, invalid UTF-8, NUL bytes,
duplicate keys. Sent to each binary for every command."""

from typing import List

from base_configs import Base, for_command, text
from case import Case
from case_builder import derived_case

COMMANDS = ["ADD", "DEL", "CHECK", "GC", "STATUS", "VERSION"]


def _garbage(valid: bytes) -> List[tuple]:
    cut = [len(valid) * k // 8 for k in range(1, 8)]
    nested_ok = b'{"pad":' + b"[" * 999 + b"]" * 999 + b"," + valid[1:]
    return [
        ("empty", b""),
        ("whitespace", b" \n\t\r "),
        ("not JSON", b"hello, plugin"),
        ("null", b"null"),
        ("empty object", b"{}"),
        ("array", b"[" + valid + b"]"),
        ("number", b"42"),
        ("negative float", b"-1.5e308"),
        ("string", b'"' + valid.replace(b'"', b'\\"') + b'"'),
        ("true", b"true"),
        *[(f"truncated at {n} of {len(valid)} bytes", valid[:n]) for n in cut],
        ("two objects", valid + valid),
        ("trailing garbage", valid + b" x"),
        ("comment", b"// config\n" + valid),
        ("UTF-8 BOM", b"\xef\xbb\xbf" + valid),
        ("UTF-16", valid.decode().encode("utf-16")),
        ("huge string member (8 MiB)", b'{"pad":"' + b"x" * (8 << 20) + b'",' + valid[1:]),
        ("huge garbage (8 MiB)", b"\x01\xfe" * (4 << 20)),
        ("deeply nested arrays", b"[" * 200000),
        ("deeply nested objects", b'{"a":' * 100000 + b"1" + b"}" * 100000),
        ("nested 999 deep inside a valid config", nested_ok),
        ("invalid UTF-8 in a string", b'{"pad":"\xc3\x28\xed\xa0\x80\xff",' + valid[1:]),
        ("invalid UTF-8 in the name", valid.replace(b'"name": "', b'"name": "\xff', 1)),
        ("invalid UTF-8 outside strings", b"{\xff" + valid[1:]),
        ("lone surrogate escape", b'{"pad":"\\ud800",' + valid[1:]),
        ("NUL before", b"\x00" + valid),
        ("NUL after", valid + b"\x00"),
        ("NUL inside a string", b'{"pad":"a\x00b",' + valid[1:]),
        ("escaped NUL in name", valid.replace(b'"name": "', b'"name": "a\\u0000', 1)),
        ("duplicate name", b'{"name":"other",' + valid[1:]),
        ("duplicate name, other case", b'{"NAME":"other",' + valid[1:]),
        ("duplicate ipam", valid[:-1] + b',"ipam":{"type":"host-local","subnet":"10.9.9.0/24"}}'),
        ("duplicate cniVersion", valid[:-1] + b',"cniVersion":"9.9.9"}'),
        ("keys with NUL and control characters", b'{"\\u0000":1,"\\u001b[31m":2,' + valid[1:]),
    ]


def stdin_cases(bases: List[Base], prev_results: dict) -> List[Case]:
    cases = []
    for base in bases:
        for command in COMMANDS:
            config = for_command(base, command, prev_results.get(base.id))
            valid = text(config)
            for label, data in _garbage(valid):
                # The whole battery reaches ADD, the command that acquires.
                cases.append(derived_case("stdin", base, command, label, data, always=command == "ADD"))
    return cases
