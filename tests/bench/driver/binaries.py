"""Where the benchmark finds the programs it runs: the build's five
binaries and its two helpers, and Debian's reference host-local."""

import os
from dataclasses import dataclass

REFERENCE_HOST_LOCAL = "/usr/lib/cni/host-local"


@dataclass
class Binaries:
    flannel: str
    win_bridge: str
    win_overlay: str
    host_local: str
    hnsctl: str
    spawn_floor: str
    peak_rss: str
    populate_node: str
    reference_host_local: str
    # Where the plugins find their delegates when not beside the binaries
    # above (the Wine pass: the release's bin folder).
    delegate_dir: str = None

    @classmethod
    def in_build(cls, build_dir):
        # Absolute: the plugins never search a relative CNI_PATH entry.
        build_dir = os.path.abspath(build_dir)

        def built(*parts):
            path = os.path.join(build_dir, *parts)
            if not os.access(path, os.X_OK):
                raise SystemExit(f"{path} is missing: build it first (scripts/bench.sh does)")
            return path

        return cls(flannel=built("plugins", "flannel", "flannel"),
                   win_bridge=built("plugins", "win-bridge", "win-bridge"),
                   win_overlay=built("plugins", "win-overlay", "win-overlay"),
                   host_local=built("ipam", "host-local", "host-local"),
                   hnsctl=built("hnsctl", "hnsctl"),
                   spawn_floor=built("tests", "bench", "spawn-floor"),
                   peak_rss=built("tests", "bench", "peak-rss"),
                   populate_node=built("tests", "bench", "populate-node"),
                   reference_host_local=REFERENCE_HOST_LOCAL if os.access(REFERENCE_HOST_LOCAL, os.X_OK) else None)

    def plugins(self):
        """The shipped programs, by name."""
        return {"flannel": self.flannel, "win-bridge": self.win_bridge, "win-overlay": self.win_overlay,
                "host-local": self.host_local, "hnsctl": self.hnsctl}

    def cni_path(self):
        """CNI_PATH: every plugin a plugin may delegate to."""
        if self.delegate_dir:
            return self.delegate_dir
        return ":".join(os.path.dirname(path) for path in (self.host_local, self.win_bridge, self.win_overlay))
