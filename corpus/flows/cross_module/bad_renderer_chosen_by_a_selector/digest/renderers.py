"""Daily digest bodies, one renderer per layout."""

from __future__ import annotations


def render_compact(inbox: str, count: int) -> str:
    return f"{count} new item(s); open {inbox} to triage."


def render_full(inbox: str, count: int) -> str:
    return f"{count} new item(s) are waiting in {inbox}. Triage them before the stand-up."
