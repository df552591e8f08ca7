#!/usr/bin/env python3
"""The hnsctl binary end to end on the HNS emulator: the "done when" of
issue #3. `hnsctl node host-gw --subnet 10.244.1.0/24`, then `network list
--json` shows the L2Bridge network cbr0 with that subnet, and `endpoint list
--json` shows cbr0_ep at 10.244.1.2."""

import json
import os
import subprocess
import sys
import tempfile


def run(hnsctl, env, *args, expect=0):
    result = subprocess.run([hnsctl, *args], env=env, capture_output=True, text=True, timeout=60)
    if result.returncode != expect:
        sys.exit(f"hnsctl {' '.join(args)}: exit {result.returncode}, wanted {expect}\n{result.stdout}{result.stderr}")
    return result.stdout


def main():
    hnsctl = sys.argv[1]
    with tempfile.TemporaryDirectory() as state:
        env = dict(os.environ, WINCNI_EMULATOR_DIR=state)
        env.pop("WINCNI_EMULATOR_FAULTS", None)
        env.pop("WINCNI_EMULATOR_HNS_VERSION", None)
        run(hnsctl, env, "node", "host-gw", "--subnet", "10.244.1.0/24")

        networks = json.loads(run(hnsctl, env, "network", "list", "--json"))
        assert len(networks) == 1, networks
        cbr0 = networks[0]
        assert cbr0["Name"] == "cbr0" and cbr0["Type"] == "L2Bridge", cbr0
        assert cbr0["Ipams"][0]["Subnets"][0]["IpAddressPrefix"] == "10.244.1.0/24", cbr0

        endpoints = json.loads(run(hnsctl, env, "endpoint", "list", "--json"))
        assert len(endpoints) == 1, endpoints
        assert endpoints[0]["Name"] == "cbr0_ep", endpoints
        assert endpoints[0]["IpConfigurations"][0]["IpAddress"] == "10.244.1.2", endpoints
        assert endpoints[0]["HostComputeNetwork"] == cbr0["ID"], endpoints

        run(hnsctl, env, "audit")
        run(hnsctl, env, "node", "vxlan", "--subnet", "10.244.1.0/24", "--vni", "1", expect=2)
        ns = run(hnsctl, env, "namespace", "create").strip()
        run(hnsctl, env, "namespace", "delete", ns)
        assert "Usage:" in run(hnsctl, env, "node", "host-gw", "--help")

        # A state directory that cannot be made is a clear failure, not a crash.
        env["WINCNI_EMULATOR_DIR"] = os.path.join(state, "state.json", "below-a-file")
        run(hnsctl, env, "network", "list", expect=1)


if __name__ == "__main__":
    main()
