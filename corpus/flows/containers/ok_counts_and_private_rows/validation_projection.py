"""Validation projection for a pull request: counts and outcomes; the raw output stays in the run log."""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path

OUTCOMES = {0: "passed", 1: "failed", 5: "no_tests"}


def run_checks(commands: dict[str, list[str]], run_log: Path) -> dict:
    checks: list[dict] = []
    private_rows: list[dict] = []
    counts: dict[str, int] = {}
    for name, argv in commands.items():
        proc = subprocess.run(argv, capture_output=True, text=True, check=False)
        private_rows.append({"name": name, "stdout": proc.stdout, "stderr": proc.stderr})
        outcome = OUTCOMES.get(proc.returncode, "error")
        checks.append({"name": name, "outcome": outcome, "stdout_lines": len(proc.stdout.splitlines())})
        counts.setdefault(outcome, 0)
        counts[outcome] += 1
        checks[-1].update({"stdout_sha256": hashlib.sha256(proc.stdout.encode()).hexdigest()})
    with run_log.open("a", encoding="utf-8") as fh:
        for row in private_rows:
            fh.write(json.dumps(row) + "\n")
    return {
        "schema_version": "pr_validation_projection_v1",
        "checks": checks,
        "outcome_counts": dict(counts),
        "raw_tool_outputs_copied": False,
    }
