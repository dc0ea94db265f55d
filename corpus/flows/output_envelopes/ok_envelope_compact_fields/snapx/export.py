"""Near miss (`published = "outputs"`): the result around an archive status is published with it, but
every other field it carries is an id, a count, a digest or a flag; the machine path is hashed, and the
process output only counted."""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path


def export_result(cache_dir: Path, snapshot_id: str, upload: bool) -> dict:
    cache = {"warm": True, "cache_key": hashlib.sha256(str(cache_dir).encode()).hexdigest()[:16]}
    archive = {"snapshot_id": snapshot_id, "raw_transcripts_copied": False}
    if not upload:
        return {"ok": True, "cache": cache, "archive": {**archive, "uploaded": False}}
    return {"ok": upload, "upload": {"archive": {**archive, "uploaded": True}, "parts": 3}}


def prune_result(store_dir: Path, keep: int) -> dict:
    proc = subprocess.run(["snapx-gc", "--keep", str(keep)], capture_output=True, text=True)
    result = {"ok": proc.returncode == 0, "kept": keep, "store_exists": store_dir.exists()}
    result["gc_warnings"] = len(proc.stderr.splitlines())
    result["archive"] = {"raw_transcripts_copied": False, "pruned": True}
    result["exit_code"] = proc.returncode
    return result


def batch_result(ids: list[str], work_dir: Path) -> dict:
    base = {"raw_transcripts_copied": False, "batch": True}
    return {"archives": [{**base, "snapshot_id": x} for x in ids], "count": len(ids), "dry": not work_dir.is_dir()}
