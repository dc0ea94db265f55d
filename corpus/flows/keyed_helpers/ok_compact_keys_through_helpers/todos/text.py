"""Text helpers for todo rows: the first non-empty field of several, collapsed and cut."""

from __future__ import annotations


def first_text(row: dict, *keys: str, limit: int = 200) -> str | None:
    for key in keys:
        text = " ".join(str(row.get(key) or "").split())
        if text:
            return text[:limit]
    return None


def field(row: dict, key: str) -> object:
    return row[key]


_LABELS = {"note": "Operator note", "evidence": "Evidence", "message": "Message"}


def label(key: str) -> str:
    return _LABELS[key]
