"""Validation projection for a pull request: which checks ran and how they ended."""

from __future__ import annotations

import subprocess


def run_checks(commands: dict[str, list[str]]) -> dict:
    checks: list[dict] = []
    notes: list[str] = []
    for name, argv in commands.items():
        proc = subprocess.run(argv, capture_output=True, text=True, check=False)
        checks.append({"name": name, "exit_code": proc.returncode, "stderr_tail": proc.stderr[-400:]})  # expect: OVA208
        if proc.returncode:
            notes.extend(proc.stdout.splitlines()[-3:])  # expect: OVA208
    if checks and checks[-1]["exit_code"]:
        notes.insert(0, f"last check said: {proc.stdout.strip()[:120]}")  # expect: OVA208
    return {
        "schema_version": "pr_validation_projection_v1",
        "checks": checks,
        "notes": notes,
        "passed": all(c["exit_code"] == 0 for c in checks),
    }
