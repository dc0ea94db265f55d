"""Locate the goal's private state files."""

from __future__ import annotations

from pathlib import Path


def require_state_file(root: Path, goal_id: str) -> Path:
    state = (root / ".loopx" / "goals" / f"{goal_id}.json").resolve()
    if not state.is_file():
        raise ValueError(f"goal state file not found: {state}")
    return state
