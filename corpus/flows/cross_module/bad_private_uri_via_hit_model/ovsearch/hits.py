"""Search hits from the user's memory scope, as plain records."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Hit:
    uri: str
    score: float
    context_type: str


def to_hits(rows: list[dict]) -> list[Hit]:
    return [
        Hit(uri=row["uri"], score=float(row.get("score", 0)), context_type=row.get("context_type", ""))
        for row in rows
    ]
