"""Manifest of a run's artifacts, committed with the example so readers can see what a run produces."""

from __future__ import annotations

import os
from pathlib import Path

MANIFEST_SCHEMA = "run_artifact_manifest_public_v1"


def artifact_entry(out_dir: Path, name: str, size: int) -> dict:
    return {"name": name, "location": str(out_dir / name), "bytes": size}  # expect: OVA504


def run_manifest(run_id: str, out_dir: Path, log_dir: str, names: list[str]) -> dict:
    manifest = {
        "schema_version": MANIFEST_SCHEMA,
        "run_id": run_id,
        "artifacts": [artifact_entry(out_dir, n, 0) for n in names],
    }
    manifest["log_folder"] = os.path.join(log_dir, run_id)  # expect: OVA504
    manifest["output_root"] = out_dir.resolve().as_posix()  # expect: OVA504
    return manifest
