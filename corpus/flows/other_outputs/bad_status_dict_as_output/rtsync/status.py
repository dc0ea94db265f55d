"""The status a sync command prints for the scripts that drive it: machine-readable output that
this repository promises is public-safe (`published = "outputs"`), so the status is published."""

from __future__ import annotations

from pathlib import Path


def sync_status(target_root: Path, kind: str, dry_run: bool) -> dict:
    base = {"dry_run": dry_run, "projection_kind": kind, "raw_artifacts_copied": False}
    result = {**base, "ok": True, "status": "projected"}
    result["shared_runtime_root"] = str(target_root)  # expect: OVA504
    return result
