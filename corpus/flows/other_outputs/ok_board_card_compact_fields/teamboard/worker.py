"""Run a todo's validation and mirror the outcome on the team board."""

from __future__ import annotations

import hashlib
import subprocess

from .client import BoardClient
from .text import board_safe_text


def validate_and_report(board: BoardClient, todo: dict, argv: list[str]) -> bool:
    proc = subprocess.run(argv, capture_output=True, text=True, check=False)
    ok = proc.returncode == 0
    board.upsert_card(
        todo["id"],
        {
            "Title": todo["title_summary"],
            "Status": "Done" if ok else "Blocked",
            "Evidence": f"{len(proc.stdout.splitlines())} output lines, sha256 "
            + hashlib.sha256(proc.stdout.encode()).hexdigest()[:12],
            "Last Error": "" if ok else board_safe_text(proc.stderr),
        },
    )
    return ok
