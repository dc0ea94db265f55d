"""Group inbox events into public lanes."""

from __future__ import annotations

import json
from pathlib import Path

LANES = {"bug": "triage", "question": "support"}
OUT = Path("fixtures") / "lanes.json"


def lane_rows(events: list[dict]) -> list[dict]:
    rows = []
    for event in events:
        try:
            lane = LANES[event["message"]]
        except KeyError as missing:
            # The KeyError's text is the key that was looked up: the event's own message.
            rows.append({"event_id": event["id"], "lane": "unknown", "why": repr(missing)})  # expect: OVA208
            continue
        rows.append({"event_id": event["id"], "lane": lane})
    return rows


def write_lanes(events: list[dict]) -> None:
    OUT.write_text(json.dumps({"rows": lane_rows(events)}), encoding="utf-8")
