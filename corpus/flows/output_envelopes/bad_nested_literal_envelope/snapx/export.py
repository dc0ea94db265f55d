"""The result an export command returns: a status of the archive it wrote (it repeats the archive's
flags) inside the command's result. The result is printed as a whole, so its other fields are output
too: the cache folder is a path of the operator's machine."""

from __future__ import annotations

from pathlib import Path


def export_result(cache_dir: Path, label: str, upload: bool) -> dict:
    cache = {"warm": True, "cache_folder": str(cache_dir / "snapshots")}  # expect: OVA504
    archive = {"archive_label": label, "raw_transcripts_copied": False}
    if not upload:
        return {"ok": True, "cache": cache, "archive": {**archive, "uploaded": False}}
    return {"ok": True, "upload": {"archive": {**archive, "uploaded": True}, "staging": str(cache_dir)}}  # expect: OVA504
