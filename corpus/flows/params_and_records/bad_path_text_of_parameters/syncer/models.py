"""The sync receipt as a model: what a run reports about itself."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class SyncReceipt:
    goal_id: str
    target_root: str
    raw_artifacts_copied: bool = False
