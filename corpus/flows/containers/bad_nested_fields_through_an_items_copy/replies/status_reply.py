"""The public reply of a review session: which turn it reached, and (by mistake) what was said in it."""

from __future__ import annotations

import json
from pathlib import Path

from .mapping import without_empty


def status_reply(session_file: Path, out_dir: Path) -> dict:
    session = json.loads(session_file.read_text(encoding="utf-8"))
    last = session["turns"][-1] if session.get("turns") else {}
    reply = without_empty(
        {
            "schema_version": "review_status_reply_v0",
            "turn_count": len(session.get("turns") or []),
            "last_turn": {"turn_id": last.get("turn_id"), "said": last.get("content")},  # expect: OVA208
        }
    )
    (out_dir / "review-status.public.json").write_text(json.dumps(reply), encoding="utf-8")
    return reply
