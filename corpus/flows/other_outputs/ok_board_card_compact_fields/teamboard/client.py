"""Minimal client of the team board's card API."""

from __future__ import annotations

import json
import urllib.request


class BoardClient:
    def __init__(self, base_url: str, board_id: str) -> None:
        self.base_url = base_url
        self.board_id = board_id

    def upsert_card(self, card_key: str, fields: dict) -> None:
        payload = json.dumps({"board": self.board_id, "key": card_key, "fields": fields}).encode()
        request = urllib.request.Request(f"{self.base_url}/cards", data=payload, method="PUT")
        urllib.request.urlopen(request, timeout=10).close()
