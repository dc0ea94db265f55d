"""The public handoff card of a todo: who hands what to whom, in a sentence."""

from __future__ import annotations

from .text import first_text


def handoff_card(row: dict) -> dict:
    return {
        "schema_version": "handoff_card_projection_v1",
        "todo_id": row["todo_id"],
        "summary": first_text(row, "summary", "note", "evidence"),  # expect: OVA208
        "headline": first_text(row, "title_summary", "summary", limit=80),
        "raw_evidence_copied": False,
    }
