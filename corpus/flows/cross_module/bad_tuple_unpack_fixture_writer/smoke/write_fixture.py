"""Regenerate the committed smoke fixture."""

from __future__ import annotations

import json
from pathlib import Path

from .report import probe_report

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def regenerate() -> None:
    reports = [probe_report("adapter", ["python", "-m", "pytest", "-q", "tests/test_adapter.py"])]
    target = FIXTURES / "smoke-report.json"
    target.write_text(json.dumps({"reports": reports}, indent=2) + "\n", encoding="utf-8")
