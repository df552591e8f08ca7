"""A case derived from a base config, as every category builds them: the
ordinary CNI environment for the base's flow (with the case's overrides),
and for DEL, CHECK and GC a valid ADD before and DEL after, so that the
hostile command meets an attachment that exists."""

from typing import Dict, Optional

from base_configs import Base, for_command, text
from case import Case, cni_env

COMMANDS_ON_AN_ATTACHMENT = ("DEL", "CHECK", "GC")


def derived_case(category: str, base: Base, command: Optional[str], label: str, stdin: bytes,
                 env: Optional[Dict[str, Optional[str]]] = None, **fields) -> Case:
    full_env = cni_env(command, base.netns)
    full_env.update(env or {})
    return Case(
        id=f"{category} {base.id} {command}: {label}",
        plugin=base.plugin,
        command=command,
        stdin=stdin,
        env=full_env,
        around=text(for_command(base, "ADD")) if command in COMMANDS_ON_AN_ATTACHMENT else None,
        around_netns=base.netns,
        may_create_network=base.may_create_network,
        **fields,
    )
