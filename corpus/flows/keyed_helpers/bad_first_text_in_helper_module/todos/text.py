"""Text helpers for todo rows: the first non-empty field of several, collapsed and cut."""

from __future__ import annotations


def _clean(value: object, limit: int) -> str | None:
    text = " ".join(str(value or "").split())
    return text[:limit] if text else None


def first_text(row: dict, *keys: str, limit: int = 200) -> str | None:
    for key in keys:
        text = _clean(row.get(key), limit)
        if text:
            return text
    return None
