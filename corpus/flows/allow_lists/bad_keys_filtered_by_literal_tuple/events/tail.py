"""`events tail`: print the last tool events as JSON lines."""

from __future__ import annotations

import json


def tail(events: list[dict]) -> None:
    for event in events[-20:]:
        line = {key: event[key] for key in event if key in ("event_id", "kind", "tool_output")}
        print(json.dumps(line))  # expect: OVA208
