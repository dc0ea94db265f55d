"""Board cards: a projection of the task queue, without the rows' comments and logs."""

from __future__ import annotations

# Which fields of a task row may appear on the team board.
CARD_FIELDS = frozenset({"task_id", "state", "attempts", "updated_at"})


def card_projection(task: dict) -> dict:
    visible = {name: val for name, val in task.items() if val is not None and name in CARD_FIELDS}
    return {
        "schema_version": "task_board_card_v2",
        "card": visible,
        "raw_comments_copied": False,
    }
