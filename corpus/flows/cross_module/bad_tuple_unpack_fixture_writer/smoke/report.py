"""Summarise a probe run for the smoke fixture."""

from __future__ import annotations

from .probe import run_probe


def probe_report(name: str, argv: list[str]) -> dict:
    code, out, err = run_probe(argv)
    report = {"probe": name, "exit_code": code, "stderr_lines": len(err.splitlines())}
    if code != 0:
        report["first_failure"] = next((ln for ln in out.splitlines() if "FAILED" in ln), "")  # expect: OVA208
    return report
