"""Public digest card: the layout picks a renderer, which is handed the inbox folder."""

from __future__ import annotations

from pathlib import Path

from .renderers import render_compact, render_full


def _renderer_for(layout: str):
    if layout == "compact":
        return render_compact
    return render_full


def digest_card(inbox: Path, count: int, layout: str) -> dict:
    inbox_text = str(inbox.resolve())
    render = _renderer_for(layout)
    body = render(inbox_text, count)
    return {
        "schema_version": "digest_card_v1",
        "layout": layout,
        "body": body,  # expect: OVA504
        "inbox_path_included": False,
    }
