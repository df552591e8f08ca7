"""What a command exchanged with HNS, from the emulator's journal
(WINCNI_EMULATOR_JOURNAL: one JSON line per HNS call): the number of calls
and the bytes of their requests and answers, as compact JSON."""

import json
import os


def traffic(journal_path):
    """(calls, bytes) the journal at `journal_path` records; the file is removed."""
    calls = 0
    exchanged = 0
    with open(journal_path) as f:
        for line in f:
            entry = json.loads(line)
            calls += 1
            for part in ("input", "output"):
                exchanged += len(json.dumps(entry.get(part), separators=(",", ":")))
    os.remove(journal_path)
    return calls, exchanged
