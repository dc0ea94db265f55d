"""The public run report: what a validation run did, in a few compact fields."""

from __future__ import annotations

import subprocess
from pathlib import Path

from .text import compact_text


def run_report(run_id: str, argv: list[str], out_dir: Path) -> dict:
    report = {
        "schema_version": "run_report_projection_v1",
        "run_id": run_id,
        "stdout_captured": False,
    }
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, check=False, timeout=60)
    except OSError as exc:
        report["detail"] = compact_text(f"could not start: {exc}")  # expect: OVA208
        return report
    report["exit_code"] = proc.returncode
    report["detail"] = compact_text(proc.stdout)  # expect: OVA208
    report["log_file"] = compact_text(str(out_dir / f"{run_id}.log"))  # expect: OVA504
    return report
