"""What a command exchanged with HNS, from the emulator's journal
(WINCNI_EMULATOR_JOURNAL: one JSON line per HNS call): the number of calls
and the bytes of their requests and answers, as compact JSON; and the time
the emulator spent on them."""

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


def emulator_seconds(journal_path):
    """The emulator's own time on the calls the journal at `journal_path`
    records (its "micros": lock, store and answer, not the caller's side);
    the file is removed. 0 for a command that made no HNS call."""
    spent = 0
    if os.path.exists(journal_path):
        with open(journal_path) as f:
            spent = sum(json.loads(line)["micros"] for line in f)
        os.remove(journal_path)
    return spent / 1e6
