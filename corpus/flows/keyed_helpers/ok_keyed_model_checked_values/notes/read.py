"""Record access shared by the notes views."""

from __future__ import annotations

import re

_SLUG = re.compile(r"[a-z0-9][a-z0-9-]{0,40}")


def pick(record: dict, key: str, default: str = "") -> str:
    value = record.get(key)
    return value if isinstance(value, str) else default


def slug(record: dict, key: str) -> str:
    value = str(record.get(key) or "")
    if not _SLUG.fullmatch(value):
        raise ValueError("not a slug")
    return value
