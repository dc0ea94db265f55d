"""Public status of the open work items: their ids, never their text."""

from __future__ import annotations

import json
from pathlib import Path

from .item_summary import open_items


def item_status(state: dict, out_dir: Path) -> dict:
    rows = []
    for entry in open_items(state):
        rows.append({"item_id": entry.get("item_id")})
    status = {"schema_version": "work_item_status_v0", "rows": rows, "text_copied": False}
    (out_dir / "item-status.public.json").write_text(json.dumps(status), encoding="utf-8")
    return status
