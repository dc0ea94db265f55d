"""After a run: post the run's status to the board."""

from __future__ import annotations

import json
from pathlib import Path

from .board import post_run_card


def report_run(result_file: Path) -> None:
    result = json.loads(result_file.read_text(encoding="utf-8"))
    summary = {k: v for k, v in result.items() if k in ("run_id", "exit_code", "duration_seconds")}
    post_run_card(summary)
