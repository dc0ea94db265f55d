"""Memory preview cards for the public routing fixture."""

from __future__ import annotations

SOURCE_KINDS = ("prior_issue", "session_outcome", "operator_note", "validation_summary")


def _kind(row: dict) -> str:
    kind = row.get("context_type", "")
    return kind if kind in SOURCE_KINDS else "unknown"


def preview_card(row: dict) -> dict:
    return {
        "ref_id": row["id"],
        "kind": _kind(row),
        "overview_line": row.get("overview", "").split("\n")[0],  # expect: OVA208
        "lesson": row.get("abstract"),  # expect: OVA208
    }


def routing_preview(rows: list[dict]) -> dict:
    return {
        "schema_version": "memory_routing_preview_projection_v1",
        "cards": [preview_card(row) for row in rows],
        "raw_memory_copied": False,
    }
