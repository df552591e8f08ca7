"""How many processes each command involves, counted rather than assumed:
the command runs once with its log in a file of its own, and every process
of ours writes a line that names its plugin and its process ID (a delegate
run in process, docs/engine.md "Delegates in process", writes its lines
with its caller's ID). The count is the number of distinct IDs. The
delegates stay the files CNI_PATH names, so that whether they run in process
is decided as on a node."""

import os
import re

from . import cni_calls

LOG_LINE = re.compile(r" ([a-z-]+)\[(\d+)\] ")


class Census:
    def __init__(self, node):
        self.node = node
        self.log = node.path("census.log")

    def processes(self, binary, command, config, container="", netns=""):
        """The number of processes `command` ran; it must succeed."""
        if os.path.exists(self.log):
            os.remove(self.log)
        cni_calls.call_ok(self.node, binary, command, config, container, netns, WINCNI_LOG_FILE=self.log,
                          WINCNI_LOG_LEVEL="info")
        with open(self.log) as f:
            ids = {match.group(2) for match in LOG_LINE.finditer(f.read())}
        if not ids:
            raise SystemExit(f"{command} with {binary} logged nothing to {self.log}: no process count")
        return len(ids)
