"""Sync the goal board; the secret travels in the child's environment, never on its command line."""

from __future__ import annotations

import os
import re
import shlex
import subprocess

_SECRET_FLAG = re.compile(r"(--(?:app-secret|api-key|token)[= ])\S+")


def redact_command(line: str) -> str:
    return _SECRET_FLAG.sub(r"\1<redacted>", line)


def sync_board(board_id: str, app_id: str, extra_args: list[str]) -> dict:
    args = ["lark-cli", "board", "sync", "--board", board_id, "--app-id", app_id]
    env = {**os.environ, "LARK_APP_SECRET": os.environ["LARK_APP_SECRET"]}
    proc = subprocess.run(args, env=env, check=False)
    return {
        "receipt_kind": "board_sync",
        "board_id": board_id,
        "command": shlex.join(args),
        "extra": redact_command(shlex.join(extra_args)),
        "secret_configured": bool(os.environ.get("LARK_APP_SECRET")),
        "exit_code": proc.returncode,
        "credentials_copied": False,
    }
