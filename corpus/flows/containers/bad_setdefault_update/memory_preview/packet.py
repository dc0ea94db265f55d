"""Per-session preview packet published next to the adapter fixture."""

from __future__ import annotations

from pathlib import Path

from .sessions import load_sessions


def session_preview_packet(store: Path) -> dict:
    packet: dict = {"schema_version": "session_preview_v1", "packet_kind": "session_preview", "raw_transcripts_copied": False}
    for session in load_sessions(store):
        sid = session["id"]
        packet.setdefault("last_turn", {})[sid] = session["messages"][-1]  # expect: OVA208
        packet.setdefault("turn_counts", {})[sid] = len(session["messages"])
    latest = max(load_sessions(store), key=lambda s: s["updated_at"])
    packet.update({"latest_session": latest["id"], "latest_prompt": latest["prompt"]})  # expect: OVA208
    return packet
