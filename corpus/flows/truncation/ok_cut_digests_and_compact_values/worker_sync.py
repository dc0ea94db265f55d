"""Worker run projection: cut digests and compact fields are fine; the output itself never appears."""

from __future__ import annotations

import hashlib

RUN_STATES = ("passed", "failed", "timed_out")


def _short_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def run_projection(run_key: str, todo: dict, result, state: str) -> dict:
    return {
        "schema_version": "worker_run_projection_v1",
        "run_key": run_key[:64],
        "todo_title": todo["title_summary"][:160],
        "state": state if state in RUN_STATES else "unknown",
        "stdout_digest": _short_digest(result.stdout),
        "stderr_digest": _short_digest(result.stderr)[:8],
        "stdout_lines": len(result.stdout.splitlines()),
        "stderr_mentions_timeout": "timeout" in result.stderr.lower()[:2000],
        "raw_tool_outputs_copied": False,
    }
