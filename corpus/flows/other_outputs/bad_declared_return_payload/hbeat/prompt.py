"""The heartbeat prompt payload the CLI prints for the agent host."""

from __future__ import annotations

from pathlib import Path


def prompt_payload(goal_id: str, state_file: Path | None, cli_bin: str = "hb") -> dict:
    state_text = str(state_file.expanduser()) if state_file else "the registered state"
    state_arg = f" --state {state_text}" if state_file else ""
    return {
        "ok": True,
        "goal_id": goal_id,
        "state_file": state_text,  # expect: OVA504
        "next_command": f"{cli_bin} prompt --goal-id {goal_id}{state_arg}",  # expect: OVA504
    }
