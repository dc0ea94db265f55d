"""Command handlers: each returns the JSON document the CLI prints on the operator's terminal."""

from __future__ import annotations

import os
from pathlib import Path


def cmd_refresh(args) -> dict:
    try:
        goal = Path(args.state_dir, f"{args.goal}.json").read_text(encoding="utf-8")
    except OSError as exc:
        return {"ok": False, "command": "refresh", "error": str(exc)}
    return {"ok": True, "command": "refresh", "goal_bytes": len(goal)}


def cmd_where(args) -> dict:
    return {"ok": True, "command": "where", "cwd": os.getcwd(), "goal": args.goal}
