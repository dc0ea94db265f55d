"""The result an export command returns to the operator's own terminal.

Near miss (default setting): the archive status repeats the flags of the archive the command wrote
elsewhere; without `published = "outputs"` neither that status nor the result around it is published
(see bad_nested_literal_envelope, bad_item_store_envelope, bad_list_of_outputs)."""

from __future__ import annotations

from pathlib import Path


def export_result(cache_dir: Path, label: str, upload: bool) -> dict:
    cache = {"warm": True, "cache_folder": str(cache_dir / "snapshots")}
    archive = {"archive_label": label, "raw_transcripts_copied": False}
    if not upload:
        return {"ok": True, "cache": cache, "archive": {**archive, "uploaded": False}}
    return {"ok": True, "upload": {"archive": {**archive, "uploaded": True}, "staging": str(cache_dir)}}


def prune_result(store_dir: Path, keep: int) -> dict:
    result = {"ok": True, "kept": keep}
    result["archive"] = {"raw_transcripts_copied": False, "pruned": True}
    result["store"] = store_dir.resolve().as_posix()
    return result


def batch_result(first: str, last: str, work_dir: Path) -> dict:
    base = {"raw_transcripts_copied": False, "batch": True}
    return {"archives": [{**base, "label": first}, {**base, "label": last}], "workdir": str(work_dir)}
