"""Write the goal's first-screen status fixture."""

from __future__ import annotations

import json
from pathlib import Path

from .materials import require_state_file

FIXTURE = Path("examples") / "fixtures" / "goal-first-screen.public.json"


def first_screen(root: Path, goal_id: str) -> dict:
    screen = {"goal_id": goal_id, "ready": False, "blocker": None}
    try:
        require_state_file(root, goal_id)
    except ValueError as exc:
        screen["blocker"] = str(exc)  # expect: OVA208
        return screen
    screen["ready"] = True
    return screen


def write_fixture(root: Path, goal_id: str) -> None:
    screen = first_screen(root, goal_id)
    with (root / FIXTURE).open("w", encoding="utf-8") as fh:
        json.dump(screen, fh, indent=2, sort_keys=True)
