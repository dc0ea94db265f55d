"""Nightly report written next to the public examples."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from .textutil import compact_log, summarize_output

REPORT = Path("docs/examples/nightly-report.public.json")


def nightly_report() -> None:
    tests = subprocess.run(["pytest", "-q"], capture_output=True, text=True, check=False)
    lint = subprocess.run(["ruff", "check", "."], capture_output=True, text=True, check=False)
    report = {
        "tests_passed": tests.returncode == 0,
        "tests_summary": summarize_output(tests.stdout),  # expect: OVA208
        "lint_log": compact_log(lint.stdout),  # expect: OVA208
    }
    REPORT.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
