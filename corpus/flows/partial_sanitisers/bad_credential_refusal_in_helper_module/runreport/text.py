"""Short text for the run report: credential-looking text is refused, the rest is collapsed and cut."""

from __future__ import annotations

import re

_CREDENTIAL = re.compile(r"(?i)\b(?:bearer\s+\S+|(?:api[_-]?key|token|password)\s*[:=]\s*\S+)")


def compact_text(value: object, limit: int = 200) -> str | None:
    text = " ".join(str(value or "").split())
    if not text or _CREDENTIAL.search(text):
        return None
    return text[:limit]
