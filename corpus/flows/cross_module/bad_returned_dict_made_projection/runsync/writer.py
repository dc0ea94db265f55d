"""Append a run to the runtime's index."""

from __future__ import annotations

import json
from pathlib import Path


def append_run(target_root: Path, goal_id: str, record: dict) -> dict:
    result = {"ok": True, "status": "projected", "target_root": str(target_root)}  # expect: OVA504
    index = target_root / "goals" / goal_id / "index.jsonl"
    with index.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(record) + "\n")
    result["index_path"] = str(index)  # expect: OVA504
    return result
