"""The status a sync command returns to the operator's terminal.

Near miss (default setting): the flags describe the record the command wrote into the shared
runtime, not this status; a status dict without a schema is a report of an operation, published
only when the repository sets `published = "outputs"` (see bad_status_dict_as_output)."""

from __future__ import annotations

from pathlib import Path


def sync_status(target_root: Path, kind: str, dry_run: bool) -> dict:
    base = {"dry_run": dry_run, "projection_kind": kind, "raw_artifacts_copied": False}
    result = {**base, "ok": True, "status": "projected"}
    result["shared_runtime_root"] = str(target_root)
    return result
