"""Card text helpers."""

from __future__ import annotations

MAX_CARD_TEXT = 1800


def _compact_text(value: object, limit: int = MAX_CARD_TEXT) -> str:
    text = " ".join(str(value or "").split())
    if len(text) <= limit:
        return text
    return text[: limit - 3] + "..."
