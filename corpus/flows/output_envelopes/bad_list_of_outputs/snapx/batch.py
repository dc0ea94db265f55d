"""A batch command returns one archive status per label, as a list under one key of its result; the
result around the list is the command's output, and so is every other field of it."""

from __future__ import annotations

from pathlib import Path


def batch_result(first: str, last: str, work_dir: Path) -> dict:
    base = {"raw_transcripts_copied": False, "batch": True}
    return {
        "ok": True,
        "archives": [{**base, "label": first}, {**base, "label": last}],
        "workdir": str(work_dir),  # expect: OVA504
    }


def batch_each(labels: list[str], spool: Path) -> dict:
    base = {"raw_transcripts_copied": False, "batch": True}
    return {"spool": str(spool / "out"), "archives": [{**base, "label": x} for x in labels]}  # expect: OVA504
