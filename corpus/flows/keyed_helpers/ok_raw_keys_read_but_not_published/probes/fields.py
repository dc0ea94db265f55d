"""Reading probe records whose layout varies by probe version."""

from __future__ import annotations


def field(record: dict, key: str) -> str:
    return str(record[key]) if key in record else ""
