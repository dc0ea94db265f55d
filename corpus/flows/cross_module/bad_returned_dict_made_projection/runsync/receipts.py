"""The public receipt of a sync: what the writer did, and what it left out."""

from __future__ import annotations

from pathlib import Path

from .writer import append_run


def sync_receipt(target_root: Path, goal_id: str, record: dict) -> dict:
    result = append_run(target_root, goal_id, record)
    # The writer's own result becomes the published receipt: everything it holds is published with it.
    result.update({"schema_version": "sync_receipt_v1", "goal_id": goal_id, "raw_artifacts_copied": False, "recommended_action_copied": False})
    return result
