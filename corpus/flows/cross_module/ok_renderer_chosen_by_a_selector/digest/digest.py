"""Public digest card: the layout picks a renderer, which is handed the inbox's name only."""

from __future__ import annotations

from pathlib import Path

from .renderers import render_compact, render_full


def _renderer_for(layout: str):
    return render_compact if layout == "compact" else render_full


def digest_card(inbox: Path, count: int, layout: str) -> dict:
    render = _renderer_for(layout)
    body = render(inbox.name, count)
    return {
        "schema_version": "digest_card_v1",
        "layout": layout,
        "body": body,
        "inbox_path_included": False,
    }
