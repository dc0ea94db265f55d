"""Read the runtime's private event ledger and its health probe."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path


def ledger_records(state_dir: Path) -> list[dict]:
    with (state_dir / "events.jsonl").open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def health_probe() -> dict:
    out = subprocess.check_output(["loopx-runtime", "health", "--json"], text=True)
    return json.loads(out)
