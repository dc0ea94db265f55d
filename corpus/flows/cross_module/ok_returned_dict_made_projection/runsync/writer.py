"""Append a run to the runtime's index.

Near miss: the writer's result holds only a status, a flag and a digest of where it wrote, so the
receipt it becomes publishes no path."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path


def append_run(target_root: Path, goal_id: str, record: dict) -> dict:
    index = target_root / "goals" / goal_id / "index.jsonl"
    with index.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(record) + "\n")
    return {
        "ok": True,
        "status": "projected",
        "index_sha256": hashlib.sha256(str(index).encode()).hexdigest(),
    }
