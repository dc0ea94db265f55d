"""Reading probe records whose layout varies by probe version."""

from __future__ import annotations

_OUTPUT_KEYS = ("stdout", "output")


def field(record: dict, key: str) -> str:
    return str(record[key]) if key in record else ""


def attribute(result: object, name: str) -> str:
    return str(getattr(result, name, "") or "")


def first_output(record: dict) -> str:
    return next((field(record, key) for key in _OUTPUT_KEYS if key in record), "")
