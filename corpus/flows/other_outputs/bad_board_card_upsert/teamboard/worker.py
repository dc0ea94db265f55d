"""Run a todo's validation and mirror the outcome on the team board."""

from __future__ import annotations

import subprocess

from .client import BoardClient


def validate_and_report(board: BoardClient, todo: dict, argv: list[str]) -> bool:
    proc = subprocess.run(argv, capture_output=True, text=True, check=False)
    ok = proc.returncode == 0
    board.upsert_card(
        todo["id"],
        {
            "Title": todo["title_summary"],
            "Status": "Done" if ok else "Blocked",
            "Evidence": proc.stdout,  # expect: OVA208
            "Last Error": "" if ok else proc.stderr.strip(),  # expect: OVA208
        },
    )
    return ok
