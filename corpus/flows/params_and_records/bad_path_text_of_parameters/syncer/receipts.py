"""Receipts of a runtime sync, published with the goal's status."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from .models import SyncReceipt


def write_receipt(*, runtime_root: Path, goal_id: str) -> dict:
    receipt = {"schema_version": "sync_receipt_v1", "goal_id": goal_id, "raw_artifacts_copied": False, "wrote": True}
    receipt["runtime_root"] = str(runtime_root)  # expect: OVA504
    return receipt


def route_receipt(route: dict, fallback_root: Optional[Path]) -> dict:
    target_text = str(route.get("target_root") or "")
    target = Path(target_text) if target_text else fallback_root
    return {
        "schema_version": "route_receipt_v1",
        "route_id": route.get("route_id"),
        "stdout_captured": False,
        "summary": f"synced into {target}",  # expect: OVA504
    }


def model_receipt(goal_id: str, root: "Path") -> SyncReceipt:
    return SyncReceipt(goal_id=goal_id, target_root=root.as_posix())  # expect: OVA504
