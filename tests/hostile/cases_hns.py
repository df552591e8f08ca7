"""HNS misbehaving under win-bridge, through the emulator's fault injection
(WINCNI_EMULATOR_FAULTS): calls that fail with a transient or a permanent
HRESULT, do their work and lose the answer, answer late, or never answer, at seeded random calls of every
command; the plugin's HNS timeout (WINCNI_HNS_TIMEOUT_MS) bounds the hangs.
After each case a fresh ADD must succeed promptly."""

import random
from typing import List

from base_configs import Base, for_command, text
from case import Case
from case_builder import derived_case

OPERATIONS = [
    "EnumerateNetworks", "EnumerateEndpoints", "EnumerateNamespaces",
    "OpenNetwork", "OpenEndpoint", "OpenNamespace",
    "CreateNetwork", "CreateEndpoint",
    "ModifyEndpoint", "ModifyNamespace",
    "QueryNetworkProperties", "QueryEndpointProperties", "QueryNamespaceProperties",
    "DeleteEndpoint", "DeleteNetwork", "GetVersion",
]

HRESULTS = [
    "0x800706BA",  # RPC_S_SERVER_UNAVAILABLE: retried
    "0x800706BE",  # RPC_S_CALL_FAILED: retried when idempotent
    "0x80004005",  # E_FAIL
    "0x803B0001",  # HCN_E_NETWORK_NOT_FOUND
    "0x803B0002",  # HCN_E_ENDPOINT_NOT_FOUND
    "0x80070005",  # E_ACCESSDENIED
    "0x8007000E",  # E_OUTOFMEMORY
]

TIMEOUT_MS = "250"
FAULTS_PER_COMMAND = 6


def _fault(rng: random.Random) -> str:
    operation = rng.choice(OPERATIONS)
    call = f"{rng.randint(1, 3)}{'+' if rng.random() < 0.3 else ''}"
    roll = rng.random()
    if roll < 0.35:
        action = f"fail={rng.choice(HRESULTS)}"
    elif roll < 0.5:
        # The call does its work, then its answer is lost.
        action = f"lose={rng.choice(HRESULTS)}"
    elif roll < 0.8:
        action = f"delay={rng.choice([50, 200, 400])}"
    else:
        action = "hang"
    return f"{operation}:{call}:{action}"


def hns_cases(bases: List[Base], prev_results: dict, seed: int = 20240501) -> List[Case]:
    rng = random.Random(seed)
    cases = []
    for base in bases:
        for command in ("ADD", "DEL", "CHECK", "GC", "STATUS"):
            specs = [",".join(_fault(rng) for _ in range(rng.choice([1, 1, 2]))) for _ in range(FAULTS_PER_COMMAND)]
            # Every call from the first on never answers.
            every_call_hangs = ",".join(f"{operation}:1+:hang" for operation in OPERATIONS)
            specs.append(every_call_hangs)
            for spec in specs:
                env = {"WINCNI_EMULATOR_FAULTS": spec, "WINCNI_HNS_TIMEOUT_MS": TIMEOUT_MS}
                label = spec if len(spec) < 120 else "every call hangs"
                cases.append(derived_case(
                    "hns", base, command, label, text(for_command(base, command, prev_results.get(base.id))), env,
                    probe=True, always=spec == every_call_hangs and base is bases[0]))
    return cases
