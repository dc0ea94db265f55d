"""Open work items of a state file: their text for the private board, their ids for anyone."""

from __future__ import annotations

from typing import Any


def open_items(state: dict[str, Any]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for item in state.get("items") or []:
        if not isinstance(item, dict) or item.get("done") is True:
            continue
        text = str(item.get("text") or "").strip()
        if not text:
            continue
        found.append({"item_id": item.get("item_id"), "text": text})
    return found
