"""The runtime's first screen from ledger records: ids, enums, counts and the records' own summaries."""

from __future__ import annotations

import hashlib
from pathlib import Path

STAGES = ("planning", "executing", "validating", "waiting", "done")


def _memory_ref(uri: str) -> str:
    return "mem_" + hashlib.sha256(uri.encode("utf-8")).hexdigest()[:12]


def first_screen(records: list[dict], memories: list[dict], out_dir: Path) -> dict:
    last = records[-1] if records else {}
    stage = last.get("stage", "")
    return {
        "schema_version": "runtime_first_screen_projection_v1",
        "last_event_id": last.get("event_id"),
        "current_stage": stage if stage in STAGES else "unknown",
        "status_summary": last.get("summary", ""),
        "issue_number": int(last.get("issue_number", 0)),
        "memory_refs": [_memory_ref(row["uri"]) for row in memories],
        "has_overview": any(row.get("overview") for row in memories),
        "output_folder": out_dir.name,
        "record_count": len(records),
    }
