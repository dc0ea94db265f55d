"""The public handoff card of a todo: ids, states and the summaries projections are meant to carry."""

from __future__ import annotations

import hashlib

from .text import field, first_text, label


def handoff_card(row: dict) -> dict:
    note = first_text(row, "note", "evidence") or ""
    return {
        "schema_version": "handoff_card_projection_v1",
        "todo_id": field(row, "todo_id"),
        "state": field(row, "status"),
        "summary": first_text(row, "title_summary", "summary"),
        "note_sha256": hashlib.sha256(note.encode("utf-8")).hexdigest(),
        "note_length": len(first_text(row, "note") or ""),
        "note_label": label("note"),
        "raw_evidence_copied": False,
    }
