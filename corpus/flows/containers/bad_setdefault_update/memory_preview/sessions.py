"""Read session records from the private session store."""

from __future__ import annotations

import json
from pathlib import Path


def load_sessions(store: Path) -> list[dict]:
    sessions = []
    for line in (store / "sessions.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            sessions.append(json.loads(line))
    return sessions
