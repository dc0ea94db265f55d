"""The relay prompt payload."""

from __future__ import annotations

import os

from .commands import regen_commands


def relay_prompt(session: str, peer: str, inbox: str, tool: str = "relay", **flags) -> dict:
    state_file = os.path.expanduser(flags.get("state") or "~/.relay/state.json")
    full_cmd, short_cmd, tiny_cmd = regen_commands(
        tool=tool, session=session, state_arg=f" --state {state_file}"
    )
    payload = {"ok": True, "session": session, "peer": peer, "inbox": inbox, "tool": tool}
    for name in ("a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "b1", "b2", "b3"):
        payload[name] = flags.get(name)
    payload.update(
        {
            "c1": flags.get("c1"),
            "c2": flags.get("c2"),
            "c3": flags.get("c3"),
            "c4": flags.get("c4"),
            "c5": flags.get("c5"),
            "c6": flags.get("c6"),
            "c7": flags.get("c7"),
            "c8": flags.get("c8"),
        }
    )
    return {
        **payload,
        "peer_inbox": f"{peer}:{inbox}",
        "session_label": f"{session}/{peer}",
        "tool_label": f"{tool}@{session}",
        "full_command": full_cmd,  # expect: OVA504
        "short_command": short_cmd,  # expect: OVA504
        "tiny_command": tiny_cmd,  # expect: OVA504
    }
