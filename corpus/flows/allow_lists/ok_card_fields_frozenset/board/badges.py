"""Badges: the owner of a task, next to its card. The row view keeps the note for the private queue page."""

from __future__ import annotations

ROW_FIELDS = ("task_id", "owner_team", "note")


def row_view(task: dict) -> dict:
    return {k: task.get(k) for k in ROW_FIELDS if task.get(k) is not None}


def badge_projection(task: dict) -> dict:
    row = row_view(task)
    return {
        "schema_version": "task_board_badge_v1",
        "owner": row.get("owner_team"),
        "raw_comments_copied": False,
    }
