"""The public goal card's base fields."""

from __future__ import annotations

CARD_SCHEMA = "goal_card_public_v1"


def make_fields(goal: dict) -> dict:
    return {
        "schema_version": CARD_SCHEMA,
        "goal_id": goal["id"],
        "status": goal["status"],
    }
