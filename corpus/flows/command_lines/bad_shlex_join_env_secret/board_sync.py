"""Sync the goal board with the team chat and leave a public receipt of what ran."""

from __future__ import annotations

import os
import shlex
import subprocess


def sync_board(board_id: str, app_id: str) -> dict:
    args = [
        "lark-cli",
        "board",
        "sync",
        "--board",
        board_id,
        "--app-id",
        app_id,
        "--app-secret",
        os.environ["LARK_APP_SECRET"],
    ]
    proc = subprocess.run(args, check=False)
    return {
        "schema_version": "board_sync_receipt_v1",
        "receipt_kind": "board_sync",
        "board_id": board_id,
        "command": shlex.join(args),  # expect: OVA410
        "exit_code": proc.returncode,
        "credentials_copied": False,
    }
