"""Read the public issue metadata the feed may show."""

from __future__ import annotations

from .text import public_safe_compact_text


def issue_card(issue: dict) -> dict:
    return {
        "issue_number": int(issue["number"]),
        "title": public_safe_compact_text(issue["title"]),
        "state": issue["state"] if issue["state"] in ("open", "closed") else "unknown",
    }
