"""The heartbeat prompt payload the CLI prints: the state file only as a flag and a name."""

from __future__ import annotations

from pathlib import Path


def prompt_payload(goal_id: str, state_file: Path | None) -> dict:
    return {
        "ok": True,
        "goal_id": goal_id,
        "state_file_registered": state_file is not None,
        "state_file_name": state_file.name if state_file else None,
        "next_command": f"hb prompt --goal-id {goal_id}",
    }


def debug_payload(state_file: Path) -> dict:
    # Not declared: returned to the operator's own debugging code, never printed by the CLI.
    return {"state_file": str(state_file.expanduser())}
