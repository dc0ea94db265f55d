"""Shared helpers for the reply payloads."""

from __future__ import annotations

from typing import Any


def without_empty(values: dict[str, Any]) -> dict[str, Any]:
    kept: dict[str, Any] = {}
    for name, value in values.items():
        if value is None or value == "":
            continue
        kept[name] = value
    return kept
