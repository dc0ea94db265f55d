"""Public-safe text: reject what must never be published, mask what may appear in passing."""

from __future__ import annotations

import re

_URL = re.compile(r"[a-z][a-z0-9+.-]*://\S+")
_PATH = re.compile(r"(?:~|/(?:home|Users|tmp|var))/\S*")
_BANNED = re.compile(r"(?i)(-----BEGIN|authorization:|api[_-]?key\s*=)")


def public_safe_compact_text(value: str, limit: int = 160) -> str:
    if _BANNED.search(value):
        raise ValueError("text holds credential material")
    text = _URL.sub("[link]", value)
    text = _PATH.sub("[path]", text)
    return " ".join(text.split())[:limit]
