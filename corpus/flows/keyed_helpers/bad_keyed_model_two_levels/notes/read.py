"""Record access shared by the notes views."""

from __future__ import annotations


def pick(record: dict, key: str, default: str = "") -> str:
    value = record.get(key)
    return value if isinstance(value, str) else default


def first_of(record: dict, *keys: str) -> str:
    for key in keys:
        if pick(record, key):
            return pick(record, key)
    return ""
