"""Card text: only allow-listed status words survive; anything else becomes a placeholder."""

from __future__ import annotations

import re

_WORD = re.compile(r"\b(?!(?:passed|failed|error|timeout|skipped|tests?|lint|ok)\b)[^\s]+")


def board_status_line(value: str, limit: int = 200) -> str:
    masked = _WORD.sub("[…]", value)
    return " ".join(masked.split())[:limit]
