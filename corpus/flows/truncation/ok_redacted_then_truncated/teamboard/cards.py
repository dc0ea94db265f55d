"""Upsert a card on the team board (the board is visible to the whole organisation)."""

from __future__ import annotations


def upsert_card(session, table: str, record_key: str, fields: dict) -> None:
    session.put(f"/tables/{table}/records/{record_key}", json={"fields": fields})
