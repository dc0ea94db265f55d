"""The inbox view: one line per pending message."""

from __future__ import annotations

# An allow-list that still lets the message body through.
SHOWN = ("msg_id", "sender_id", "message")
# A deny-list: every other field is copied, notes included.
HIDDEN = {"auth_token", "cookie"}
LISTED = ("msg_id", "stderr")


def inbox_view(rows: list[dict], meta: dict) -> dict:
    return {
        "ok": True,
        "items": [{k: v for k, v in row.items() if k in SHOWN} for row in rows],  # expect: OVA208
        "meta": {k: v for k, v in meta.items() if k not in HIDDEN},  # expect: OVA208
        "first": {k: rows[0][k] for k in LISTED if k in rows[0]},  # expect: OVA208
    }
