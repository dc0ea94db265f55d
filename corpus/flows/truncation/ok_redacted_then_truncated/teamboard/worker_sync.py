"""Mirror a worker's run on the team board."""

from __future__ import annotations

from .cards import upsert_card
from .text import board_status_line


def mirror_run(session, run_key: str, result) -> None:
    last_line = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""
    fields = {
        "Run": run_key,
        "State": "passed" if result.returncode == 0 else "failed",
        "Evidence": board_status_line(last_line),
    }
    upsert_card(session, "worker_runs", run_key, fields)
